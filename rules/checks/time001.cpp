// TIME001 unsynchronized-side-stream: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Time001 final : public Check {
public:
  std::string_view id() const override { return "TIME001"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeTime001() { return std::make_unique<Time001>(); }

} // namespace kbaudit::rules
