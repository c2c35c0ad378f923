#pragma once

// Shared reading of Python control flow for the MEM rules: which functions forward reaches,
// what a branch's blocks are (from Branch::arms), which calls do work, and the calls on a range
// of lines. Who the inputs are, what a function returns and what a cache key reads are the
// semantic layer's answers (input_aliases, returned_items, cache_key), re-exported here under
// the names the MEM checks use.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/cache_key.h"
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

/// The lines an if/elif test guards (its block), and the block of its `else`, if any.
struct BranchBlocks {
  LineRange body;     ///< the if-block (for a one-line `if c: stmt`, the test's own line)
  LineRange orelse;   ///< {0,0} when there is no else
  bool inlineBody = false;
};
/// From the branch's arms (if/elif); empty for branch kinds without arms.
BranchBlocks blocksOf(const py::Branch &b);

bool within(LineRange inner, LineRange outer);

/// A call that does no work the timing is meant to measure (metadata, views, copies, allocation,
/// builtins): it cannot stand for recomputing a result.
bool isInertCall(const py::Call &c);

/// Calls in `fn` (and its nested defs) on `lines`.
std::vector<const py::Call *> callsOn(const py::PythonFacts &facts, std::string_view fn, LineRange lines);

} // namespace kbaudit::rules::mem
