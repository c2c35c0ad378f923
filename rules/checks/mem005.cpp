// MEM005 l2-persistence-gaming: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Mem005 final : public Check {
public:
  std::string_view id() const override { return "MEM005"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeMem005() { return std::make_unique<Mem005>(); }

} // namespace kbaudit::rules
