#include "kbaudit/semantic/returned_items.h"

#include "kbaudit/semantic/cache_key.h"
#include "kbaudit/semantic/expr_query.h"

namespace kbaudit::semantic {

std::vector<ReturnStatement> returnsOf(const py::PythonFacts &facts, const py::Function &fn) {
  std::vector<ReturnStatement> out;
  for (const py::Return &r : facts.returns)
    if (r.function == fn.qualname)
      out.push_back(ReturnStatement{r.lines, &r.value});
  return out;
}

std::vector<const py::Expr *> returnedItems(const py::Expr &returned) {
  std::vector<const py::Expr *> out;
  if ((returned.kind == py::ExprKind::Tuple || returned.kind == py::ExprKind::List) && !returned.elements.empty()) {
    for (const py::Expr &e : returned.elements)
      out.push_back(&e);
    return out;
  }
  if (returned.lines.valid()) // a bare `return` returns nothing
    out.push_back(&returned);
  return out;
}

bool returnsStoredState(const py::PythonFacts &facts, const py::Function &fn, const py::Expr &returned) {
  const std::vector<const py::Expr *> items = returnedItems(returned);
  if (items.empty())
    return false;
  for (const py::Expr *item : items) {
    bool stored = isStoredState(*item, facts);
    for (const py::Assignment &a : facts.assignments)
      if (!stored && a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Name && reads(*item, a.target) &&
          isStoredState(a.value, facts) && a.value.kind != py::ExprKind::Call)
        stored = true;
    if (!stored)
      return false;
  }
  return true;
}

} // namespace kbaudit::semantic
