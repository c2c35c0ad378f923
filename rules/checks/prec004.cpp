// PREC004 contract-precision-bypass: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Prec004 final : public Check {
public:
  std::string_view id() const override { return "PREC004"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makePrec004() { return std::make_unique<Prec004>(); }

} // namespace kbaudit::rules
