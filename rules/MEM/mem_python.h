#pragma once

// Shared start of the MEM rules: which functions forward reaches. A branch's blocks, which
// calls do work, who the inputs are, what a function returns and what a cache key reads are
// the semantic layer's answers (branch_blocks, call_work, input_aliases, returned_items,
// cache_key), re-exported here under the names the MEM checks use.

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

// Who the inputs are is the semantic layer's answer (kbaudit/semantic/input_aliases.h).
using semantic::inputParams;
using semantic::reboundBefore;
inline std::set<std::string> inputNames(const py::PythonFacts &facts, const py::Function &fn) {
  return semantic::inputAliases(facts, fn);
}

// What a function returns is the semantic layer's answer (kbaudit/semantic/returned_items.h).
using Statement = semantic::ReturnStatement;
using semantic::returnedItems;
inline std::vector<Statement> returns(const py::PythonFacts &facts, const py::Function &fn) {
  return semantic::returnsOf(facts, fn);
}

// A cache test's blocks and which calls do work are the semantic layer's answers
// (kbaudit/semantic/branch_blocks.h, call_work.h).
using semantic::BranchBlocks;
using semantic::blocksOf;
using semantic::callsOn;
using semantic::isInertCall;
using semantic::within;

} // namespace kbaudit::rules::mem
