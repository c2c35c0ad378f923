// PREC003 triton-dot-implicit-tf32: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Prec003 final : public Check {
public:
  std::string_view id() const override { return "PREC003"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makePrec003() { return std::make_unique<Prec003>(); }

} // namespace kbaudit::rules
