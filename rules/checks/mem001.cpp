// MEM001 identity-keyed-output-cache: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Mem001 final : public Check {
public:
  std::string_view id() const override { return "MEM001"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeMem001() { return std::make_unique<Mem001>(); }

} // namespace kbaudit::rules
