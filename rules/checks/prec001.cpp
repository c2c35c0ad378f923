// PREC001 downcast-below-contract: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Prec001 final : public Check {
public:
  std::string_view id() const override { return "PREC001"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makePrec001() { return std::make_unique<Prec001>(); }

} // namespace kbaudit::rules
