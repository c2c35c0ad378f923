#include "time_common.h"
#include "forward_entry.h"

#include "kbaudit/problems/problem_context.h"

namespace kbaudit::rules::timing {

void TimingCheck::run(const CheckContext &ctx, FindingSink &sink) const {
  const bool reference = ctx.problem && ctx.problem->reference.found;
  const ForwardReach reach(ctx.facts, reference ? &ctx.problem->reference.facts : nullptr,
                           reference ? ctx.problem->reference.modelClass : std::string());
  if (!reach.knownEntry()) {
    sink.skipped(std::string(kNoEntryPoint));
    return;
  }
  check(ctx, reach, sink);
}

} // namespace kbaudit::rules::timing
