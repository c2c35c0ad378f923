#pragma once

// RUB007's report of RNG replays (semantic::rngReplays): values drawn after a reseed, or by the
// problem's input generator, that forward compares with its arguments or returns results of.

#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/check.h"

#include <set>
#include <string>

namespace kbaudit::rules::rub {

/// Reports the replays semantic::rngReplays finds (decisive ones at the rule's confidence, the
/// import-time generator run after a reseed as low). `reachable`: the functions the entry
/// point reaches.
void reportRngReplay(const CheckContext &ctx, const std::set<std::string> &reachable, FindingSink &sink);

} // namespace kbaudit::rules::rub
