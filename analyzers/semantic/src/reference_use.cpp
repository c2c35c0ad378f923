#include "kbaudit/semantic/reference_use.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {

using pytext::mentionsName;
using pytext::startsWith;

ModelUse modelUse(const Facts &facts, const scope::GradedScope &graded, const std::string &modelClass,
                  std::vector<std::string> names) {
  const py::PythonFacts &py = facts.python;
  const auto mentions = [&](std::string_view text) {
    return std::any_of(names.begin(), names.end(), [&](const std::string &n) {
      return text == n || startsWith(text, n + ".") || startsWith(text, n + "(") || mentionsName(text, n);
    });
  };
  for (size_t i = 0; i < names.size() && i < 16; ++i)
    for (const py::Assignment &a : py.assignments)
      if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && mentions(a.value.text) &&
          std::find(names.begin(), names.end(), a.target) == names.end())
        names.push_back(a.target);
  // The graded class itself is the reference's: re-exported, aliased or subclassed.
  const auto isGradedName = [&](const std::string &n) {
    return (n == "Model" || n == "ModelNew" || n == modelClass) && !py.findClass(n);
  };
  if (std::any_of(names.begin(), names.end(), isGradedName))
    return ModelUse::Graded;
  for (const py::Class &c : py.classes)
    if (std::any_of(c.bases.begin(), c.bases.end(), [&](const std::string &b) { return mentions(b); }))
      return ModelUse::Graded;
  ModelUse use = ModelUse::None;
  const auto note = [&](const std::string &fn, LineRange l) {
    if (fn.empty())
      return;
    use = std::max(use, graded.graded(fn, l) ? ModelUse::Graded : ModelUse::Elsewhere);
  };
  for (const py::Call &c : py.calls)
    if (mentions(c.resolved) || mentions(c.callee))
      note(c.function, c.lines);
  for (const py::NameRef &n : py.nameRefs)
    if (mentions(n.resolved) || mentions(n.text))
      note(n.function, n.lines);
  for (const py::Assignment &a : py.assignments)
    if (mentions(a.value.text))
      note(a.function, a.lines);
  return use;
}

ModelUse referenceModelUse(const Facts &facts, const std::string &modelClass) {
  const py::PythonFacts &py = facts.python;
  const std::string qualified = "reference." + modelClass;
  std::vector<std::string> names = {qualified};
  for (const py::Import &imp : py.imports) {
    if (imp.target != "reference" && !startsWith(imp.target, "reference."))
      continue;
    names.push_back(imp.target == qualified ? imp.boundName : imp.boundName + "." + modelClass);
  }
  for (const py::Call &c : py.calls) {
    if (c.resolved != "__import__" && c.resolved != "importlib.import_module")
      continue;
    const py::Argument *a = c.positionalArg(0);
    if (!a || !a->value.string || a->value.string->value != "reference")
      continue;
    for (const py::Assignment &as : py.assignments)
      if (as.kind == py::Assignment::TargetKind::Name && as.function == c.function &&
          scope::contains(as.lines, c.lines))
        names.push_back(as.target + "." + modelClass);
  }
  return modelUse(facts, scope::GradedScope(facts), modelClass, std::move(names));
}

} // namespace kbaudit::semantic
