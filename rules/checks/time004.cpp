// TIME004 stale-graph-replay: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Time004 final : public Check {
public:
  std::string_view id() const override { return "TIME004"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeTime004() { return std::make_unique<Time004>(); }

} // namespace kbaudit::rules
