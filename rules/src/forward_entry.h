#pragma once

// The start most rules share: find forward, and the Python functions it reaches. Rules that
// judge what forward runs have nothing to say about a file without one, and report that the
// same way so the skip reads alike in every report.

#include "kbaudit/facts.h"
#include "kbaudit/rules/check.h"

#include <set>
#include <string>

namespace kbaudit::rules {

/// Why a check that judges the graded call is skipped: the file has none of the suites' entry
/// points.
inline constexpr std::string_view kNoEntryPoint =
    "no graded entry point found (ModelNew/Model.forward, GPU MODE custom_kernel(data), pygpubench "
    "kernel(output, *inputs))";

/// False (after telling the sink the check was skipped) when the file has no entry point.
bool forwardFound(const Facts &facts, FindingSink &sink);

/// The Python functions forward reaches (KernelInventory::reachableFunctions), for lookups.
std::set<std::string> reachableFromForward(const Facts &facts);

} // namespace kbaudit::rules
