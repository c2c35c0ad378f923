#pragma once

// Calls of a memoized function (`functools.lru_cache`/`functools.cache`, as a decorator or
// applied by a call: `cached = lru_cache(maxsize=8)(run)`) that hand it the caller's input
// tensors. Tensors hash by object identity, so a repeated input object returns the stored
// result: the decorator form of MEM001's identity-keyed cache. Only functions that do the
// timed work themselves count (a kernel launch or an extension call inside them); a table
// built from an integer argument is legitimate.

#include "kbaudit/facts.h"

#include <set>
#include <string>
#include <vector>

namespace kbaudit::semantic {

struct MemoizedCall {
  const py::Call *call = nullptr;    ///< the call, in one of `callers`
  const py::Function *memoized = nullptr;
  std::string how;                   ///< "functools.lru_cache", "functools.lru_cache(_run)"
};

/// For each memoized function that launches work, the first call in `callers` that passes it
/// an input (a name or an item of one of the caller's input aliases).
std::vector<MemoizedCall> memoizedCallsOnInputs(const Facts &facts, const std::set<std::string> &callers);

} // namespace kbaudit::semantic
