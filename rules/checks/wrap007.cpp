// WRAP007 reference-fallback: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Wrap007 final : public Check {
public:
  std::string_view id() const override { return "WRAP007"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeWrap007() { return std::make_unique<Wrap007>(); }

} // namespace kbaudit::rules
