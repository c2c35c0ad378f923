// RUB007 hardcoded-results: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub007 final : public Check {
public:
  std::string_view id() const override { return "RUB007"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub007() { return std::make_unique<Rub007>(); }

} // namespace kbaudit::rules
