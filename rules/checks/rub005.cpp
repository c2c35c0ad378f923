// RUB005 shape-gated-numerics: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub005 final : public Check {
public:
  std::string_view id() const override { return "RUB005"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub005() { return std::make_unique<Rub005>(); }

} // namespace kbaudit::rules
