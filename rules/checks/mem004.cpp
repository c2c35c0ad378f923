// MEM004 sampled-content-cache: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Mem004 final : public Check {
public:
  std::string_view id() const override { return "MEM004"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeMem004() { return std::make_unique<Mem004>(); }

} // namespace kbaudit::rules
