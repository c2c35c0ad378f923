#include "kbaudit/semantic/def_use.h"

#include "kbaudit/semantic/python_text.h"

namespace kbaudit::semantic {

std::vector<const py::Assignment *> bindingsOf(const py::PythonFacts &facts, std::string_view name,
                                               std::string_view function) {
  std::vector<const py::Assignment *> out;
  if (name.empty())
    return out;
  const bool selfAttr = pytext::startsWith(name, "self.");
  const std::string cls = pytext::classOf(function);
  for (const py::Assignment &a : facts.assignments) {
    if (a.target != name)
      continue;
    if (selfAttr ? (!cls.empty() && pytext::classOf(a.function) == cls)
                 : (a.function == function || a.function.empty()))
      out.push_back(&a);
  }
  return out;
}

namespace {

bool directRead(const py::Expr &e, std::string_view dotted, std::string_view getter) {
  if ((e.kind == py::ExprKind::Attribute || e.kind == py::ExprKind::Name) && e.resolved == dotted)
    return true;
  return !getter.empty() && e.kind == py::ExprKind::Call && e.resolved == getter;
}

} // namespace

bool readsBackSetting(const py::PythonFacts &facts, const py::Expr &e, std::string_view function,
                      std::string_view dotted, std::string_view getter) {
  // A local name's `resolved` follows its first alias binding (`prev = torch...allow_tf32`
  // resolves to the setting), which says nothing about later rebindings: judge names by
  // every binding instead.
  const bool localName = e.kind == py::ExprKind::Name && e.root != dotted; // a Name is its own root
  if (!localName && directRead(e, dotted, getter))
    return true;
  if (e.kind != py::ExprKind::Name && e.kind != py::ExprKind::Attribute)
    return false;
  const std::vector<const py::Assignment *> defs = bindingsOf(facts, e.text, function);
  // Every binding must be a read-back: a name also assigned a literal may hold a new value.
  if (defs.empty())
    return false;
  for (const py::Assignment *a : defs)
    if (!directRead(a->value, dotted, getter))
      return false;
  return true;
}

} // namespace kbaudit::semantic
