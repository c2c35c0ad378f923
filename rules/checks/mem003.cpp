// MEM003 output-aliases-input: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Mem003 final : public Check {
public:
  std::string_view id() const override { return "MEM003"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeMem003() { return std::make_unique<Mem003>(); }

} // namespace kbaudit::rules
