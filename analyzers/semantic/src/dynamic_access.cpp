// Modules and attributes reached through strings (dynamic_access.h).

#include "kbaudit/semantic/dynamic_access.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/static_value.h"

namespace kbaudit::semantic {

std::optional<std::string> dynamicImportTarget(const py::PythonFacts &py, const py::Call &c) {
  if (c.resolved != "importlib.import_module" && c.resolved != "__import__")
    return std::nullopt;
  const py::Argument *a = c.positionalArg(0);
  return a ? staticString(py, a->value) : std::nullopt;
}

std::optional<std::string> getattrTarget(const py::PythonFacts &py, const py::Call &c) {
  if (c.resolved != "getattr")
    return std::nullopt;
  const py::Argument *obj = c.positionalArg(0);
  const py::Argument *attr = c.positionalArg(1);
  if (!obj || !attr || !attr->value.string || !attr->value.string->complete)
    return std::nullopt;
  if (obj->value.kind != py::ExprKind::Name && obj->value.kind != py::ExprKind::Attribute)
    return std::nullopt;
  const std::string_view root = rootName(obj->value);
  bool imported = false;
  for (const py::Import &i : py.imports)
    imported = imported || i.boundName.substr(0, i.boundName.find('.')) == root;
  if (!imported)
    return std::nullopt;
  return obj->value.resolved + "." + attr->value.string->value;
}

} // namespace kbaudit::semantic
