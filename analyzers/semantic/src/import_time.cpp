#include "kbaudit/semantic/import_time.h"

#include <algorithm>
#include <vector>

namespace kbaudit::semantic {

std::set<std::string> functionsRunAtImport(const py::PythonFacts &facts, const scope::GradedScope &graded) {
  std::set<std::string> out;
  std::vector<std::string> queue;
  auto add = [&](const std::string &fn) {
    if (!fn.empty() && out.insert(fn).second)
      queue.push_back(fn);
  };
  auto callees = [&](const py::Call &c) {
    add(graded.calleeFunction(c.function, c));
    if (facts.findClass(c.resolved) && facts.findFunction(c.resolved + ".__init__"))
      add(c.resolved + ".__init__");
  };
  for (const py::Call &c : facts.calls)
    if (c.function.empty() && !graded.inMainGuard(c.lines))
      callees(c);
  while (!queue.empty()) {
    const std::string fn = queue.back();
    queue.pop_back();
    for (const py::Call &c : facts.calls)
      if (scope::inFunction(c.function, fn))
        callees(c);
  }
  return out;
}

bool runsAtImport(const std::set<std::string> &atImport, const scope::GradedScope &graded, std::string_view function,
                  LineRange lines) {
  if (function.empty())
    return !graded.inMainGuard(lines);
  return std::any_of(atImport.begin(), atImport.end(),
                     [&](const std::string &f) { return scope::inFunction(function, f); });
}

} // namespace kbaudit::semantic
