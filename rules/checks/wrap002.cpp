// WRAP002 library-laundering: TODO (stub until implemented).

#include "all_checks.h"

namespace kbaudit::rules {
namespace {

class Wrap002 final : public Check {
public:
  std::string_view id() const override { return "WRAP002"; }
  void run(const CheckContext &, FindingSink &) const override {}
};

} // namespace

std::unique_ptr<Check> makeWrap002() { return std::make_unique<Wrap002>(); }

} // namespace kbaudit::rules
