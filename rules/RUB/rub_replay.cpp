#include "rub_replay.h"

#include "kbaudit/semantic/rng_replay.h"

namespace kbaudit::rules::rub {

void reportRngReplay(const CheckContext &ctx, const std::set<std::string> &reachable, FindingSink &sink) {
  const std::set<std::string> generators = ctx.problem && ctx.problem->reference.found
                                               ? semantic::referenceInputGenerators(ctx.problem->reference.facts)
                                               : std::set<std::string>{};
  for (const semantic::RngReplay &r : semantic::rngReplays(ctx.facts, reachable, generators))
    sink.report(r.source->lines, {{"what", r.what}}, r.evidence,
                r.decisive ? std::nullopt : std::optional<Confidence>(Confidence::Low));
}

} // namespace kbaudit::rules::rub
