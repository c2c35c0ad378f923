// MEM002 uninitialized-output: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Mem002 final : public Check {
public:
  std::string_view id() const override { return "MEM002"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeMem002() { return std::make_unique<Mem002>(); }

} // namespace kbaudit::rules
