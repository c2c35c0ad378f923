// RUB006 input-distribution-sniffing: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub006 final : public Check {
public:
  std::string_view id() const override { return "RUB006"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub006() { return std::make_unique<Rub006>(); }

} // namespace kbaudit::rules
