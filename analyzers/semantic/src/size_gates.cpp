#include "kbaudit/semantic/size_gates.h"

#include "kbaudit/semantic/exact_size_test.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace kbaudit::semantic {
namespace {

using pytext::classOf;
using pytext::startsWith;

bool isSizeTest(const py::PythonFacts &py, const ExactSizeTest &t, const std::string &function) {
  if (t.subjectReadsShape)
    return true;
  return !t.items.empty() && std::all_of(t.items.begin(), t.items.end(), [&](const std::string &item) {
    return holdsSize(py, item, function);
  });
}

std::optional<std::string> firstSizeTest(const py::PythonFacts &py, const std::vector<ExactSizeTest> &tests,
                                         const std::string &function) {
  for (const ExactSizeTest &t : tests)
    if (isSizeTest(py, t, function))
      return t.clause;
  return std::nullopt;
}

/// `self.x` is one per class, a local one per function.
std::string scopeKey(std::string_view function, std::string_view name) {
  if (startsWith(name, "self."))
    return classOf(function) + "#" + std::string(name);
  return std::string(function) + ":" + std::string(name);
}

} // namespace

bool holdsSize(const py::PythonFacts &py, std::string_view name, const std::string &function) {
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
      return false;
  if (startsWith(name, "self.")) {
    const std::string init = classOf(function) + ".__init__";
    return std::any_of(py.assignments.begin(), py.assignments.end(),
                       [&](const py::Assignment &a) { return a.function == init && a.target == name; });
  }
  for (const py::Assignment &a : py.assignments)
    if (a.function == function && a.kind == py::Assignment::TargetKind::Name && a.target == name &&
        (readsShape(a.value) || readsAttributeOf(a.value, "self")))
      return true;
  if (const py::Function *fn = py.findFunction(function); fn && fn->name != "forward")
    return std::find(fn->params.begin(), fn->params.end(), name) != fn->params.end();
  return false;
}

std::optional<std::string> exactSizeGate(const py::PythonFacts &py, std::string_view condition,
                                         const std::string &function) {
  return firstSizeTest(py, exactSizeTests(condition), function);
}

std::optional<std::string> exactSizeGate(const py::PythonFacts &py, const py::Expr &condition,
                                         const std::string &function) {
  return firstSizeTest(py, exactSizeTests(condition), function);
}

SizeGateNames::SizeGateNames(const py::PythonFacts &py, const std::set<std::string> &functions) {
  for (const py::Assignment &a : py.assignments) {
    if (!functions.count(a.function) && a.function.find("__init__") == std::string::npos)
      continue;
    if (a.value.kind != py::ExprKind::Comparison && a.value.kind != py::ExprKind::BoolOp)
      continue;
    if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
      continue;
    if (std::optional<std::string> g = exactSizeGate(py, a.value, a.function))
      gates_.emplace(scopeKey(a.function, a.target), *g);
  }
}

std::optional<std::string> SizeGateNames::gateOf(std::string_view function, std::string_view name) const {
  const auto it = gates_.find(scopeKey(function, name));
  return it == gates_.end() ? std::nullopt : std::optional<std::string>(it->second);
}

} // namespace kbaudit::semantic
