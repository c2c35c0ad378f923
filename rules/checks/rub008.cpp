// RUB008 lenient-weight-loading: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub008 final : public Check {
public:
  std::string_view id() const override { return "RUB008"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub008() { return std::make_unique<Rub008>(); }

} // namespace kbaudit::rules
