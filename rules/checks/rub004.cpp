// RUB004 call-count-gating: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub004 final : public Check {
public:
  std::string_view id() const override { return "RUB004"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub004() { return std::make_unique<Rub004>(); }

} // namespace kbaudit::rules
