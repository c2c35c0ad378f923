#include "rub_process_site.h"

#include "kbaudit/semantic/python_text.h"

namespace kbaudit::rules::rub {

using semantic::scope::inFunction;

bool ProcessSites::onlyCalledFromSelfTest(std::string_view function, int depth) const {
  // `def main(): ... sys.exit(0)` run from the `__main__` block is the file's own script.
  if (function.empty() || depth > 3)
    return false;
  bool called = false;
  for (const py::Call &c : facts_.python.calls) {
    if (scope_.calleeFunction(c.function, c) != function || inFunction(c.function, function))
      continue;
    called = true;
    const bool selfTest = c.function.empty() ? scope_.inMainGuard(c.lines) : onlyCalledFromSelfTest(c.function, depth + 1);
    if (!selfTest)
      return false;
  }
  return called;
}

bool ProcessSites::calledFromGraded(std::string_view function, int depth) const {
  // A module-level helper the model's __init__ (or import-time code) calls runs when the
  // grader builds the model, though forward never reaches it.
  if (function.empty() || depth > 3)
    return false;
  for (const py::Call &c : facts_.python.calls) {
    if (scope_.calleeFunction(c.function, c) != function || inFunction(c.function, function))
      continue;
    if (scope_.graded(c.function, c.lines) || calledFromGraded(c.function, depth + 1))
      return true;
  }
  return false;
}

SiteScope ProcessSites::scopeOf(std::string_view function, LineRange lines) const {
  if (scope_.inMainGuard(lines))
    return SiteScope::SelfTest;
  if (scope_.graded(function, lines) || calledFromGraded(function, 0))
    return SiteScope::Graded;
  // A nested def is only as reachable as the function around it.
  std::string outer(function);
  while (!outer.empty()) {
    if (onlyCalledFromSelfTest(outer, 0))
      return SiteScope::SelfTest;
    const auto dot = outer.rfind('.');
    outer = dot == std::string::npos ? std::string() : outer.substr(0, dot);
  }
  return SiteScope::Elsewhere;
}

void ProcessSites::report(FindingSink &sink, std::string_view function, LineRange lines, std::string what,
                          std::string note, bool decisive) const {
  const SiteScope where = scopeOf(function, lines);
  if (where == SiteScope::SelfTest)
    return;
  if (where == SiteScope::Elsewhere) {
    note += std::string(note.empty() ? "" : "; ") + "not on a path the grader is seen to run";
    decisive = false;
  }
  sink.report(lines, {{"what", std::move(what)}}, std::move(note),
              decisive ? std::nullopt : std::optional<Confidence>(Confidence::Low));
}

} // namespace kbaudit::rules::rub
