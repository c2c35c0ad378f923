#include "time_common.h"
#include "forward_entry.h"

#include "kbaudit/problems/problem_context.h"

namespace kbaudit::rules::timing {

void TimingCheck::run(const CheckContext &ctx, FindingSink &sink) const {
  const ForwardReach &reach = forwardReach(ctx);
  if (!reach.knownEntry()) {
    sink.skipped(std::string(kNoEntryPoint));
    return;
  }
  check(ctx, reach, sink);
}

} // namespace kbaudit::rules::timing
