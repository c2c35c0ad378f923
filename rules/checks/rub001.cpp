// RUB001 caller-sniffing: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub001 final : public Check {
public:
  std::string_view id() const override { return "RUB001"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub001() { return std::make_unique<Rub001>(); }

} // namespace kbaudit::rules
