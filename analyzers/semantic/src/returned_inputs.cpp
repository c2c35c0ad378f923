#include "kbaudit/semantic/returned_inputs.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/input_aliases.h"
#include "kbaudit/semantic/input_view.h"
#include "kbaudit/semantic/returned_items.h"

#include <algorithm>
#include <set>

namespace kbaudit::semantic {

std::vector<ReturnedInput> returnedInputs(const py::PythonFacts &py, const py::Function &fn) {
  std::vector<ReturnedInput> out;
  std::set<std::size_t> seen;
  const std::vector<std::string> params = inputParams(fn);
  for (const ReturnStatement &r : returnsOf(py, fn))
    for (const py::Expr *item : returnedItems(*r.value))
      for (std::size_t i = 0; i < params.size(); ++i)
        if (!seen.count(i) && isViewOfParam(*item, params[i]) && !reboundBefore(py, fn, params[i], r.lines.begin)) {
          seen.insert(i);
          out.push_back({i, params[i], item, r.lines});
        }
  return out;
}

std::vector<PassedInput> inputsPassedToReturnedCall(const py::PythonFacts &py, const py::Function &fn,
                                                    const std::string &exported, unsigned index) {
  std::vector<PassedInput> out;
  const std::vector<std::string> params = inputParams(fn);
  const std::vector<ReturnStatement> rets = returnsOf(py, fn);
  for (const py::Call &c : py.calls) {
    if (c.function != fn.qualname || c.method != exported)
      continue;
    const bool returned =
        std::any_of(rets.begin(), rets.end(), [&](const ReturnStatement &r) { return r.lines.contains(c.lines.begin); });
    const py::Argument *arg = c.positionalArg(index);
    if (!returned || !arg || arg->value.kind != py::ExprKind::Name)
      continue;
    for (std::size_t i = 0; i < params.size(); ++i)
      if (isName(arg->value, params[i]) && !reboundBefore(py, fn, params[i], c.lines.begin))
        out.push_back({i, params[i]});
  }
  return out;
}

const cxx::CxxFunction *exportDefinition(const cxx::CxxFacts &cxx, const cxx::ExportedFunction &ex) {
  const cxx::CxxFunction *fn = nullptr;
  for (const cxx::CxxFunction &c : cxx.functions)
    if (c.definition && c.qualifiedName == ex.target)
      fn = &c;
  return fn;
}

} // namespace kbaudit::semantic
