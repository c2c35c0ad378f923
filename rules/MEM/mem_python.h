#pragma once

// Shared start of the MEM rules: which functions forward reaches. A branch's blocks, which
// calls do work, who the inputs are, what a function returns and what a cache key reads are
// the semantic layer's answers (branch_blocks, call_work, input_aliases, returned_items,
// cache_key); the MEM checks call them by their own names.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/branch_blocks.h"
#include "kbaudit/semantic/cache_key.h"
#include "kbaudit/semantic/call_work.h"
#include "kbaudit/semantic/condition_parts.h"
#include "kbaudit/semantic/input_aliases.h"
#include "kbaudit/semantic/returned_items.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules::mem {

/// Functions the entry points reach; every method of a model class when the inventory has none.
std::set<std::string> reachableFunctions(const Facts &f);

} // namespace kbaudit::rules::mem
