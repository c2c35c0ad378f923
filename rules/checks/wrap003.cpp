// WRAP003 fig-leaf-kernel: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Wrap003 final : public Check {
public:
  std::string_view id() const override { return "WRAP003"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeWrap003() { return std::make_unique<Wrap003>(); }

} // namespace kbaudit::rules
