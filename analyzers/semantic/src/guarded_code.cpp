#include "kbaudit/semantic/guarded_code.h"

#include "kbaudit/semantic/caller_knowledge.h"
#include "kbaudit/semantic/graded_scope.h"

namespace kbaudit::semantic {

using scope::contains;
using scope::inFunction;

bool onlyReports(const py::PythonFacts &py, const py::Branch &b) {
  bool any = false;
  for (const py::Call *c : scope::callsIn(py, b.function, b.body)) {
    if (contains(b.lines, c->lines))
      continue;
    if (!scope::isLoggingCall(c->resolved) && !scope::isExceptionConstructor(c->resolved))
      return false;
    any = true;
  }
  if (!any)
    return false;
  for (const py::Assignment &a : py.assignments)
    if (inFunction(a.function, b.function) && contains(b.body, a.lines) && !contains(b.lines, a.lines))
      return false;
  for (const py::OperatorUse &o : py.operators)
    if (inFunction(o.function, b.function) && contains(b.body, o.lines))
      return false;
  return true;
}

bool stringNamesGrader(const py::PythonFacts &py, std::string_view function, LineRange lines, bool skipDocstrings) {
  for (const py::StringConstant &s : py.strings)
    if (s.function == function && contains(lines, s.lines) && !(skipDocstrings && s.docstring) &&
        hasGraderWord(s.value.value))
      return true;
  return false;
}

} // namespace kbaudit::semantic
