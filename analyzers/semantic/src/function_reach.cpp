// Functions a function reaches within one file (function_reach.h).

#include "kbaudit/semantic/function_reach.h"

#include <set>
#include <string>

namespace kbaudit::semantic {

std::vector<const py::Function *> functionsReachedFrom(const py::PythonFacts &facts, const py::Function &entry) {
  std::vector<const py::Function *> out{&entry};
  std::set<std::string> seen{entry.qualname};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const py::Function &fn = *out[i];
    for (const py::Call &c : facts.calls) {
      if (c.function != fn.qualname)
        continue;
      if (c.callee.find('.') == std::string::npos) {
        for (const std::string &q : {fn.qualname + "." + c.callee, c.callee})
          if (const py::Function *g = facts.findFunction(q)) {
            if (seen.insert(g->qualname).second)
              out.push_back(g);
            break;
          }
        continue;
      }
      if (c.callee.rfind("self.", 0) == 0 && c.callee.find('.', 5) == std::string::npos && !fn.className.empty()) {
        if (const py::Function *g = facts.findFunction(fn.className + "." + c.method))
          if (seen.insert(g->qualname).second)
            out.push_back(g);
        continue;
      }
      // `blk.step(x)`, `self.attn.step(x)`: the object's class is unknown, so every method
      // of that name in the file may run (a class-hierarchy approximation).
      if (c.callee != c.resolved)
        continue;
      for (const py::Function &g : facts.functions)
        if (!g.className.empty() && g.name == c.method && seen.insert(g.qualname).second)
          out.push_back(&g);
    }
  }
  return out;
}

bool launchesAuthoredCode(const Facts &f, const std::vector<const py::Function *> &fns) {
  std::set<std::string> names;
  for (const py::Function *fn : fns)
    names.insert(fn->qualname);
  for (const triton::Launch &l : f.triton.launches)
    if (names.count(l.function))
      return true;
  for (const embed::ExtensionCall &c : f.embedded.calls)
    if (names.count(c.function))
      return true;
  return false;
}

} // namespace kbaudit::semantic
