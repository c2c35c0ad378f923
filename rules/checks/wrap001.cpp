#include "all_checks.h"

namespace kbaudit::rules {
namespace {
class C final : public Check {
public:
  std::string_view id() const override { return "WRAP001"; }
  void run(const CheckContext &, FindingSink &) const override {}
};
} // namespace
std::unique_ptr<Check> makeWrap001() { return std::make_unique<C>(); }
} // namespace kbaudit::rules
