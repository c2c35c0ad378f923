#pragma once

// Runtime probes confirm, clear or add findings: a probe finding under a rule raises that
// rule's static findings to high confidence (or adds one when the rule was silent); a probe
// that passed lowers the static findings it tests directly to low (a cache that is
// invalidated correctly is not a hack); the solution reading or changing grader files is RUB002.

#include "kbaudit/rules/finding.h"
#include "kbaudit/runtime/probe.h"

namespace kbaudit::annotations {

void applyRuntime(rules::RuleResults &results, const runtime::RuntimeReport &report);

} // namespace kbaudit::annotations
