#include "kbaudit/semantic/static_value.h"

namespace kbaudit::semantic {

const py::Expr &bindingOf(const py::PythonFacts &facts, const py::Expr &e) {
  if (e.kind != py::ExprKind::Name)
    return e;
  const py::Expr *found = &e;
  for (const py::Assignment &a : facts.assignments)
    if (a.kind == py::Assignment::TargetKind::Name && a.function.empty() && a.target == e.root &&
        a.op == "=" && a.lines.begin <= e.lines.begin)
      found = &a.value;
  return *found;
}

std::optional<bool> staticTruth(const py::PythonFacts &facts, const py::Expr &e) {
  const py::Expr &v = bindingOf(facts, e);
  if (v.kind == py::ExprKind::Bool)
    return v.text == "True";
  if (v.kind == py::ExprKind::Number && v.number)
    return *v.number != 0.0;
  if (v.kind == py::ExprKind::None)
    return false;
  return std::nullopt;
}

std::optional<std::string> staticText(const py::PythonFacts &facts, const py::Expr &e) {
  const py::Expr &v = bindingOf(facts, e);
  if (v.string && v.string->complete)
    return v.string->value;
  if (v.kind == py::ExprKind::Attribute || v.kind == py::ExprKind::Name)
    return v.resolved.empty() ? v.text : v.resolved;
  return std::nullopt;
}

std::optional<std::string> staticString(const py::PythonFacts &facts, const py::Expr &e) {
  const py::Expr &v = bindingOf(facts, e);
  if (v.string && v.string->complete)
    return v.string->value;
  return std::nullopt;
}

} // namespace kbaudit::semantic
