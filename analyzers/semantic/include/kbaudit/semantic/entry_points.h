#pragma once

// The graded entry point and what it reaches. Rules that judge "what the graded call runs"
// ask here, so they agree on which functions count (forward, the helpers it calls, methods of
// objects it builds) whatever the suite's convention.

#include "kbaudit/facts.h"

#include <set>
#include <string>

namespace kbaudit::semantic {

/// True when the file has a graded entry point the inventory recognised.
bool hasEntryPoint(const Facts &facts);

/// Qualnames of the Python functions the entry point reaches (itself included).
std::set<std::string> reachableFromEntry(const Facts &facts);

} // namespace kbaudit::semantic
