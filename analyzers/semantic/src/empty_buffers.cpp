#include "kbaudit/semantic/empty_buffers.h"

#include "kbaudit/semantic/branch_blocks.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

#include <string_view>

namespace kbaudit::semantic {
namespace {

bool isIf(const py::Branch &b) { return b.kind == "if" || b.kind == "elif"; }

/// A return under a test of the arguments (`if n == 0: return out`): nothing to write.
bool underArgumentGuard(const py::PythonFacts &py, const py::Function &fn, LineRange ret) {
  for (const py::Branch &b : py.branches) {
    if (b.function != fn.qualname || !isIf(b))
      continue;
    const BranchBlocks blocks = blocksOf(b);
    if (!within(ret, blocks.body) && !(blocks.inlineBody && b.lines.contains(ret.begin)))
      continue;
    // Early exits on the arguments (an empty problem size, say) are not the hack; an exit
    // on state left by earlier calls is.
    if (!testsCallState(b))
      return true;
  }
  return false;
}

} // namespace

bool isEmptyAllocation(const py::Expr &v) {
  if (v.kind != py::ExprKind::Call)
    return false;
  const std::string_view r = v.resolved;
  for (std::string_view f : {"torch.empty", "torch.empty_like", "torch.empty_strided"})
    if (r == f)
      return true;
  const std::string_view method = pytext::lastSegment(r);
  return method == "new_empty" || method == "new_empty_strided";
}

bool testsCallState(const py::Branch &b) {
  for (py::ConditionTag t : b.tags)
    if (t == py::ConditionTag::CallCounter || t == py::ConditionTag::Identity || t == py::ConditionTag::Pointer ||
        t == py::ConditionTag::Version || t == py::ConditionTag::Attribute)
      return true;
  return false;
}

std::set<std::string> outputProducers(const Facts &f) {
  std::set<std::string> out(f.kernels.entryPoints.begin(), f.kernels.entryPoints.end());
  for (const std::string &entry : f.kernels.entryPoints) {
    const py::Function *fn = f.python.findFunction(entry);
    if (!fn)
      continue;
    for (const ReturnStatement &r : returnsOf(f.python, *fn))
      for (const py::Call &c : f.python.calls) // a call inside the returned value
        if (c.function == fn->qualname && r.lines.contains(c.lines.begin))
          for (const py::Function &g : f.python.functions) {
            const bool method = g.className == fn->className && g.qualname == g.className + "." + g.name;
            const bool free = g.className.empty() && g.qualname == g.name;
            if ((method && c.callee == "self." + g.name) || (free && c.callee == g.name))
              out.insert(g.qualname);
          }
  }
  return out;
}

std::optional<ReturnStatement> returnOfBuffer(const py::PythonFacts &py, const py::Function &fn,
                                              const std::string &name, unsigned after) {
  for (const ReturnStatement &r : returnsOf(py, fn)) {
    if (r.lines.begin <= after || underArgumentGuard(py, fn, r.lines))
      continue;
    for (const py::Expr *item : returnedItems(*r.value))
      if (rootName(*item) == name) // the buffer itself, an item or a view of it
        return r;
  }
  return std::nullopt;
}

const py::Branch *writeGuard(const py::PythonFacts &py, const py::Function &fn, LineRange use, LineRange alloc,
                             LineRange ret) {
  const py::Branch *best = nullptr;
  for (const py::Branch &b : py.branches) {
    if (b.function != fn.qualname || !isIf(b))
      continue;
    const BranchBlocks blocks = blocksOf(b);
    const bool holds = within(use, blocks.body) || within(use, blocks.orelse);
    if (!holds || b.body.contains(alloc.begin) || b.body.contains(ret.begin) || blocks.inlineBody)
      continue;
    if (!best || b.lines.begin > best->lines.begin)
      best = &b;
  }
  return best;
}

bool writesOnBothSides(const std::vector<LineRange> &uses, const py::Branch &guard) {
  const BranchBlocks blocks = blocksOf(guard);
  bool body = false, orelse = false;
  for (const LineRange &u : uses) {
    body |= within(u, blocks.body);
    orelse |= within(u, blocks.orelse);
  }
  return body && orelse;
}

} // namespace kbaudit::semantic
