// PREC005 magnitude-gated-numerics: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Prec005 final : public Check {
public:
  std::string_view id() const override { return "PREC005"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makePrec005() { return std::make_unique<Prec005>(); }

} // namespace kbaudit::rules
