#include "all_checks.h"

namespace kbaudit::rules {
namespace {
class C final : public Check {
public:
  std::string_view id() const override { return "PREC002"; }
  void run(const CheckContext &, FindingSink &) const override {}
};
} // namespace
std::unique_ptr<Check> makePrec002() { return std::make_unique<C>(); }
} // namespace kbaudit::rules
