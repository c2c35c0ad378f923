// RUB003 monkeypatching: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub003 final : public Check {
public:
  std::string_view id() const override { return "RUB003"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub003() { return std::make_unique<Rub003>(); }

} // namespace kbaudit::rules
