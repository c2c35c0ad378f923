// RUB002 grader-file-access: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Rub002 final : public Check {
public:
  std::string_view id() const override { return "RUB002"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeRub002() { return std::make_unique<Rub002>(); }

} // namespace kbaudit::rules
