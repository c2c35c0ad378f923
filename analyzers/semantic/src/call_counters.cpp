#include "kbaudit/semantic/call_counters.h"

#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace kbaudit::semantic {

bool isIncrement(const py::Assignment &a) {
  if (a.op == "+=")
    return true;
  return a.op == "=" && stepsFrom(a.value, a.target);
}

std::vector<CallCounter> perCallCounters(const Facts &facts, const scope::GradedScope &graded) {
  const py::PythonFacts &py = facts.python;
  std::set<std::string> globals;
  for (const py::Assignment &a : py.assignments)
    if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name)
      globals.insert(a.target);
  std::vector<CallCounter> out;
  for (const py::Assignment &a : py.assignments) {
    if (!isIncrement(a) || a.function.empty() || !graded.graded(a.function, a.lines))
      continue;
    if (!std::any_of(facts.kernels.reachableFunctions.begin(), facts.kernels.reachableFunctions.end(),
                     [&](const std::string &r) { return scope::inFunction(a.function, r); }))
      continue; // bumped in __init__ or a method forward never calls: not a call counter
    if (a.kind == py::Assignment::TargetKind::SelfAttribute)
      out.push_back({a.target, pytext::classOf(a.function), a.lines, a.function});
    else if (a.kind == py::Assignment::TargetKind::Name && globals.count(a.target))
      out.push_back({a.target, "", a.lines, a.function});
  }
  return out;
}

const CallCounter *counterIn(const py::Branch &b, const std::vector<CallCounter> &counters) {
  for (const CallCounter &c : counters) {
    if (!c.owner.empty() && c.owner != pytext::classOf(b.function))
      continue;
    if (std::find(b.names.begin(), b.names.end(), c.name) != b.names.end())
      return &c;
  }
  return nullptr;
}

bool isThreshold(const py::PythonFacts &py, const py::Branch &b, const CallCounter &c) {
  // The test is kept as written (Branch::condition): what is left without the counter's name
  // says whether it is compared, and with what.
  std::string rest = b.condition;
  for (size_t pos = rest.find(c.name); pos != std::string::npos; pos = rest.find(c.name))
    rest.erase(pos, c.name.size());
  const bool compares = rest.find_first_of("<>=!%") != std::string::npos;
  if (!compares)
    return true; // `if self.calls:` / `if not _CALLS:`
  if (std::any_of(rest.begin(), rest.end(), [](unsigned char ch) { return std::isdigit(ch); }))
    return true;
  // `self.calls >= self.warmup` with warmup bound to a number.
  for (const std::string &n : b.names) {
    if (n == c.name)
      continue;
    for (const py::Assignment &a : py.assignments)
      if (a.target == n && a.value.kind == py::ExprKind::Number && a.op == "=")
        return true;
  }
  return false;
}

} // namespace kbaudit::semantic
