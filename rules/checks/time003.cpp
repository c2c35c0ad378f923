// TIME003 host-concurrency: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Time003 final : public Check {
public:
  std::string_view id() const override { return "TIME003"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeTime003() { return std::make_unique<Time003>(); }

} // namespace kbaudit::rules
