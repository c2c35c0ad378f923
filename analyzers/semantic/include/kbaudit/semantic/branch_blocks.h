#pragma once

// The blocks an `if`/`elif` guards, for the MEM rules' cache tests: the block under the test
// (a hit when the test is positive, a refill when it is negative) and the `else` block.
// semantic/arm_work.h splits a whole if/elif/else chain into arms; this reads only the first
// arm and an `else` right after it, as a cache test is written.

#include "kbaudit/python/facts.h"

namespace kbaudit::semantic {

/// The lines an if/elif test guards (its block), and the block of its `else`, if any.
struct BranchBlocks {
  LineRange body;     ///< the if-block (for a one-line `if c: stmt`, the test's own line)
  LineRange orelse;   ///< {0,0} when there is no else
  bool inlineBody = false;
};
/// From the branch's arms (if/elif); empty for branch kinds without arms.
BranchBlocks blocksOf(const py::Branch &b);

/// `inner` starts inside `outer` (a valid range).
bool within(LineRange inner, LineRange outer);

} // namespace kbaudit::semantic
