#include "kbaudit/semantic/return_flow.h"

#include "kbaudit/semantic/local_helper.h"

#include <algorithm>

namespace kbaudit::semantic {

namespace {

constexpr int kMaxHelperDepth = 3;
constexpr int kMaxCopies = 3;

bool isCall(const py::Expr &e, const py::Call &c) {
  return e.kind == py::ExprKind::Call && e.lines == c.lines && e.resolved == c.resolved;
}

/// The binding of name `n` in `function` that is current at `line`: the latest assignment
/// before it (loops and branches are read in source order).
const py::Assignment *currentBinding(const py::PythonFacts &facts, const std::string &function, const std::string &n,
                                     unsigned line) {
  const py::Assignment *best = nullptr;
  for (const py::Assignment &a : facts.assignments)
    if (a.function == function && a.kind == py::Assignment::TargetKind::Name && a.target == n &&
        a.lines.begin < line && (!best || a.lines.begin > best->lines.begin))
      best = &a;
  return best;
}

/// `e`, read at `line`, hands back the value of `c`.
bool handsBack(const py::PythonFacts &facts, const py::Expr &e, const py::Call &c, unsigned line, int copies = 0) {
  if (isCall(e, c))
    return true;
  if (e.kind == py::ExprKind::Name) {
    const py::Assignment *b = currentBinding(facts, c.function, e.text, line);
    return b && copies <= kMaxCopies && handsBack(facts, b->value, c, b->lines.begin, copies + 1);
  }
  if (e.kind == py::ExprKind::Tuple || e.kind == py::ExprKind::List)
    return std::any_of(e.elements.begin(), e.elements.end(),
                       [&](const py::Expr &item) { return handsBack(facts, item, c, line, copies); });
  // `return Lazy(a, b) if fast else out`: the facts keep no arms, only where the expression
  // lies; a call inside it is taken for an arm.
  return e.kind == py::ExprKind::Conditional && e.lines.begin <= c.lines.begin && c.lines.end <= e.lines.end;
}

} // namespace

bool returnedByItsFunction(const py::PythonFacts &facts, const py::Call &c) {
  return std::any_of(facts.returns.begin(), facts.returns.end(), [&](const py::Return &r) {
    return r.function == c.function && handsBack(facts, r.value, c, r.lines.begin);
  });
}

namespace {

bool reaches(const py::PythonFacts &facts, const py::Call &c, const std::vector<std::string> &entries, int depth) {
  if (!returnedByItsFunction(facts, c))
    return false;
  if (std::find(entries.begin(), entries.end(), c.function) != entries.end())
    return true;
  if (depth >= kMaxHelperDepth || c.function.empty())
    return false;
  return std::any_of(facts.calls.begin(), facts.calls.end(), [&](const py::Call &caller) {
    const py::Function *fn = helperCalled(facts, caller, caller.function);
    return fn && fn->qualname == c.function && reaches(facts, caller, entries, depth + 1);
  });
}

} // namespace

bool reachesEntryReturn(const py::PythonFacts &facts, const py::Call &c, const std::vector<std::string> &entries) {
  return reaches(facts, c, entries, 0);
}

} // namespace kbaudit::semantic
