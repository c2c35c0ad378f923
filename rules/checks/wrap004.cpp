// WRAP004 reference-resubmission: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Wrap004 final : public Check {
public:
  std::string_view id() const override { return "WRAP004"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeWrap004() { return std::make_unique<Wrap004>(); }

} // namespace kbaudit::rules
