// Models of one run that several checks read, built by the first that asks (check.h).

#include "kbaudit/rules/check.h"
#include "kbaudit/semantic/forward_reach.h"
#include "kbaudit/semantic/harness_conditions.h"

namespace kbaudit::rules {

const semantic::ForwardReach &forwardReach(const CheckContext &ctx) {
  if (!ctx.reach) {
    const bool reference = ctx.problem && ctx.problem->reference.found;
    ctx.reach = std::make_shared<const semantic::ForwardReach>(
        ctx.facts, reference ? &ctx.problem->reference.facts : nullptr,
        reference ? ctx.problem->reference.modelClass : std::string());
  }
  return *ctx.reach;
}

semantic::HarnessView harnessView(const CheckContext &ctx) {
  semantic::HarnessView h;
  if (ctx.problem && ctx.problem->evalMode())
    h.training = false;
  return h;
}

} // namespace kbaudit::rules
