#pragma once

// What the hit and miss paths of a cache test do, for MEM001 (identity-keyed output cache):
// whether the hit hands back stored state without recomputing, and whether the miss captures a
// CUDA graph (a launch schedule kept per input identity, which is honest) rather than data.

#include "kbaudit/python/facts.h"
#include "kbaudit/semantic/returned_items.h"

#include <optional>

namespace kbaudit::semantic {

/// The return that serves a hit of cache test `b` in `fn`, when it hands back stored state
/// (semantic::returnsStoredState) with no working call (semantic::computesOn) between the test
/// and it. A `positive` test (`if key == self.key:`) hits in its block; a negative one
/// (`if key != self.key:` refilling the store) hits at the first return after the miss block
/// and its `else`. nullopt when there is no such return.
std::optional<ReturnStatement> storedHit(const py::PythonFacts &py, const py::Function &fn, const py::Branch &b,
                                         bool positive);

/// A call on `lines` of `fn`, or one level into the class's own helpers it calls
/// (`self._build(x)`), names a CUDA graph, its capture or its replay.
bool capturesGraph(const py::PythonFacts &py, const py::Function &fn, LineRange lines);

} // namespace kbaudit::semantic
