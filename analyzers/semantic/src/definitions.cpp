// The solution's definitions and their lines (definitions.h).

#include "kbaudit/semantic/definitions.h"

#include "kbaudit/semantic/extension_sources.h"

#include <algorithm>

namespace kbaudit::semantic {
namespace {

/// The `def`/`class` line itself, below any decorators, through the end: what a quote shows.
LineRange defLines(LineRange whole, const std::vector<py::Decorator> &decorators) {
  unsigned line = whole.begin;
  for (const py::Decorator &d : decorators)
    line = std::max(line, d.lines.end + 1);
  return LineRange{line, std::max(line, whole.end)};
}

} // namespace

std::vector<Definition> definitions(const Facts &f) {
  std::vector<Definition> out;
  for (const py::Function &fn : f.python.functions)
    out.push_back({fn.name, defLines(fn.lines, fn.decorators)});
  for (const py::Class &c : f.python.classes)
    out.push_back({c.name, defLines(c.lines, c.decorators)});
  for (const cxx::CxxFunction &fn : f.cxx.functions)
    if (fn.definition && !fn.lambda)
      out.push_back({fn.name, solutionSite(f.embedded, fn.source, fn.lines)});
  std::sort(out.begin(), out.end(), [](const Definition &a, const Definition &b) { return a.lines.begin < b.lines.begin; });
  return out;
}

} // namespace kbaudit::semantic
