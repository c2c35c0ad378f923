// TIME002 deferred-computation: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Time002 final : public Check {
public:
  std::string_view id() const override { return "TIME002"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeTime002() { return std::make_unique<Time002>(); }

} // namespace kbaudit::rules
