// WRAP005 forbidden-operation: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Wrap005 final : public Check {
public:
  std::string_view id() const override { return "WRAP005"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeWrap005() { return std::make_unique<Wrap005>(); }

} // namespace kbaudit::rules
