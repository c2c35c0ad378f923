#include "kbaudit/semantic/cache_hit.h"

#include "kbaudit/semantic/branch_blocks.h"
#include "kbaudit/semantic/call_work.h"

#include <string_view>
#include <vector>

namespace kbaudit::semantic {
namespace {

/// The return inside the hit block, or the first one after a miss block that only refills.
const ReturnStatement *hitReturn(const std::vector<ReturnStatement> &rets, LineRange hit, bool afterBlock) {
  for (const ReturnStatement &r : rets) {
    if (!afterBlock && within(r.lines, hit))
      return &r;
    if (afterBlock && r.lines.begin > hit.end)
      return &r;
  }
  return nullptr;
}

bool graphy(std::string_view s) {
  for (std::string_view w : {"graph", "Graph", "replay", "capture"})
    if (s.find(w) != std::string_view::npos)
      return true;
  return false;
}

} // namespace

std::optional<ReturnStatement> storedHit(const py::PythonFacts &py, const py::Function &fn, const py::Branch &b,
                                         bool positive) {
  const BranchBlocks blocks = blocksOf(b);
  const std::vector<ReturnStatement> rets = returnsOf(py, fn);
  const LineRange missEnd{blocks.body.begin, blocks.orelse.valid() ? blocks.orelse.end : blocks.body.end};
  const ReturnStatement *ret = positive ? hitReturn(rets, blocks.body, false) : hitReturn(rets, missEnd, true);
  if (!ret || !returnsStoredState(py, fn, *ret->value))
    return std::nullopt;
  const LineRange between =
      positive ? LineRange{blocks.body.begin, ret->lines.end} : LineRange{missEnd.end + 1, ret->lines.end};
  if (computesOn(py, fn, between, b.lines))
    return std::nullopt;
  return *ret;
}

bool capturesGraph(const py::PythonFacts &py, const py::Function &fn, LineRange lines) {
  for (const py::Call *c : callsOn(py, fn.qualname, lines)) {
    if (graphy(c->resolved) || graphy(c->callee))
      return true;
    if (c->receiver == "self" && !fn.className.empty())
      for (const py::Call &inner : py.calls)
        if (inner.function == fn.className + "." + c->method && (graphy(inner.resolved) || graphy(inner.callee)))
          return true;
  }
  return false;
}

} // namespace kbaudit::semantic
