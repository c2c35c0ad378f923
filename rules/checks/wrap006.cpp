// WRAP006 vendored-library-source: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Wrap006 final : public Check {
public:
  std::string_view id() const override { return "WRAP006"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeWrap006() { return std::make_unique<Wrap006>(); }

} // namespace kbaudit::rules
