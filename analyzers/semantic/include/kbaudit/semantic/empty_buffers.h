#pragma once

// Uninitialised buffers and the path that returns them, for MEM002 (uninitialized output):
// which allocations leave memory unwritten, which functions produce the graded output, which
// return hands a buffer back, and which `if` a write to it sits under. Whether some write
// reaches the buffer is semantic::mentionsThatMayWrite (buffer_writes.h).

#include "kbaudit/facts.h"
#include "kbaudit/semantic/returned_items.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// `torch.empty`, `empty_like`, `empty_strided`, `x.new_empty(...)`, `x.new_empty_strided(...)`:
/// memory whose contents are whatever was there before.
bool isEmptyAllocation(const py::Expr &value);

/// The branch tests state left by earlier calls (a call counter, a flag an attribute holds, the
/// identity, address or version of an input), not the arguments of this call.
bool testsCallState(const py::Branch &b);

/// Functions whose return value is the graded output: the entry points and the file's
/// functions whose result an entry point's `return` holds (`return self._run(x)`).
std::set<std::string> outputProducers(const Facts &facts);

/// The first return of `fn` after line `after` that hands back buffer `name` (itself, an item or
/// a view of it), skipping returns under a test of the arguments (`if n == 0: return out`, an
/// early exit with nothing to write) but not under a test of earlier calls' state.
std::optional<ReturnStatement> returnOfBuffer(const py::PythonFacts &py, const py::Function &fn,
                                              const std::string &name, unsigned after);

/// The innermost if/elif of `fn` whose block or else-block holds `use` but whose body holds
/// neither the allocation nor the return (one-line `if c: stmt` excluded); null when none.
const py::Branch *writeGuard(const py::PythonFacts &py, const py::Function &fn, LineRange use, LineRange alloc,
                             LineRange ret);

/// Some of `uses` lie in `guard`'s block and some in its else-block: every path writes.
bool writesOnBothSides(const std::vector<LineRange> &uses, const py::Branch &guard);

} // namespace kbaudit::semantic
