#include "kbaudit/semantic/memoized_calls.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/input_aliases.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <map>

namespace kbaudit::semantic {

namespace {

bool isMemoizer(std::string_view resolved) {
  return pytext::startsWith(resolved, "functools.lru_cache") || pytext::startsWith(resolved, "functools.cache");
}

/// What callers call `g` by -> how it is memoized: the def's own name under `@lru_cache`, the
/// name bound by `cached = lru_cache(maxsize=8)(run)` (the front end gives `run` that decorator
/// on the binding's line).
std::map<std::string, std::string> memoizedNames(const py::PythonFacts &facts, const py::Function &g) {
  std::map<std::string, std::string> names;
  for (const py::Decorator &d : g.decorators) {
    if (!isMemoizer(d.resolved))
      continue;
    if (g.lines.contains(d.lines.begin)) {
      names.try_emplace(g.name, d.resolved);
      names.try_emplace(g.qualname, d.resolved);
      continue;
    }
    for (const py::Assignment &a : facts.assignments)
      if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && a.lines.contains(d.lines.begin))
        names.try_emplace(a.target, d.resolved + "(" + g.qualname + ")");
  }
  return names;
}

/// `g` does the timed work itself: a kernel launch or an extension call inside it.
bool launches(const Facts &f, const py::Function &g) {
  return std::any_of(f.python.calls.begin(), f.python.calls.end(),
                     [&](const py::Call &c) { return c.function == g.qualname && !c.launchedKernel.empty(); }) ||
         std::any_of(f.embedded.calls.begin(), f.embedded.calls.end(),
                     [&](const embed::ExtensionCall &c) { return c.function == g.qualname; });
}

} // namespace

std::vector<MemoizedCall> memoizedCallsOnInputs(const Facts &f, const std::set<std::string> &callers) {
  std::vector<MemoizedCall> out;
  for (const py::Function &g : f.python.functions) {
    const std::map<std::string, std::string> names = memoizedNames(f.python, g);
    if (names.empty() || g.params.empty() || !launches(f, g))
      continue;
    for (const py::Call &c : f.python.calls) {
      const auto how = names.count(c.callee) ? names.find(c.callee) : names.find(c.resolved);
      if (!callers.count(c.function) || how == names.end())
        continue;
      const py::Function *caller = f.python.findFunction(c.function);
      if (!caller)
        continue;
      const std::set<std::string> inputs = inputAliases(f.python, *caller);
      const bool tensorArg = std::any_of(c.args.begin(), c.args.end(), [&](const py::Argument &a) {
        return (a.value.kind == py::ExprKind::Name || a.value.kind == py::ExprKind::Subscript) && readsAny(a.value, inputs);
      });
      if (tensorArg) {
        out.push_back({&c, &g, how->second});
        break;
      }
    }
  }
  return out;
}

} // namespace kbaudit::semantic
