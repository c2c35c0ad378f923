#include "kbaudit/semantic/branch_blocks.h"

namespace kbaudit::semantic {

bool within(LineRange inner, LineRange outer) {
  return inner.begin >= outer.begin && inner.begin <= outer.end && outer.begin != 0;
}

BranchBlocks blocksOf(const py::Branch &b) {
  BranchBlocks out;
  if (b.arms.empty())
    return out;
  const py::BranchArm &arm = b.arms.front();
  out.body = arm.body;
  out.inlineBody = arm.body.begin <= arm.test.end; // `if c: stmt`
  // The else block, when the next arm is the else (not a later elif).
  if (b.arms.size() > 1 && b.arms[1].kind == "else")
    out.orelse = b.arms[1].body;
  return out;
}

} // namespace kbaudit::semantic
