#include "kbaudit/semantic/graded_scope.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <cctype>

namespace kbaudit::semantic::scope {

using namespace pytext;

bool contains(LineRange outer, LineRange inner) { return outer.begin <= inner.begin && inner.end <= outer.end; }

bool overlaps(LineRange a, LineRange b) { return a.begin <= b.end && b.begin <= a.end; }

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool inFunction(std::string_view fn, std::string_view scope) {
  return fn == scope || (fn.size() > scope.size() && startsWith(fn, scope) && fn[scope.size()] == '.');
}

namespace {

bool isMainGuardText(std::string_view cond) {
  return cond.find("__name__") != std::string_view::npos && cond.find("__main__") != std::string_view::npos;
}

} // namespace

GradedScope::GradedScope(const Facts &facts) : facts_(facts) {
  for (const py::Branch &b : facts.python.branches)
    if (b.function.empty() && b.kind == "if" && isMainGuardText(b.condition))
      mainGuards_.push_back(b.body);
  for (const std::string &e : facts.kernels.entryPoints)
    if (std::string c = classOf(e); !c.empty())
      modelClasses_.push_back(c);
}

bool GradedScope::inMainGuard(LineRange lines) const {
  return std::any_of(mainGuards_.begin(), mainGuards_.end(), [&](LineRange g) { return contains(g, lines); });
}

bool GradedScope::graded(std::string_view function, LineRange lines) const {
  if (function.empty())
    return !inMainGuard(lines);
  for (const std::string &r : facts_.kernels.reachableFunctions)
    if (inFunction(function, r))
      return true;
  const std::string cls = classOf(function);
  return !cls.empty() && std::find(modelClasses_.begin(), modelClasses_.end(), cls) != modelClasses_.end();
}

std::string GradedScope::calleeFunction(std::string_view function, const py::Call &call) const {
  return calleeFunction(function, call.resolved);
}

std::string GradedScope::calleeFunction(std::string_view function, std::string_view resolved) const {
  const py::PythonFacts &py = facts_.python;
  if (startsWith(resolved, "self.") && resolved.find('.', 5) == std::string_view::npos) {
    const std::string cls = classOf(function);
    const std::string q = cls + "." + std::string(resolved.substr(5));
    return !cls.empty() && py.findFunction(q) ? q : std::string{};
  }
  if (resolved.find('.') != std::string_view::npos)
    return py.findFunction(resolved) ? std::string(resolved) : std::string{};
  // A nested def shadows a module-level one of the same name.
  for (std::string scope(function); !scope.empty();) {
    const std::string q = scope + "." + std::string(resolved);
    if (py.findFunction(q))
      return q;
    const auto dot = scope.rfind('.');
    scope = dot == std::string::npos ? std::string{} : scope.substr(0, dot);
  }
  return py.findFunction(resolved) ? std::string(resolved) : std::string{};
}

bool isLoggingCall(std::string_view r) {
  return r == "print" || startsWith(r, "logging.") || startsWith(r, "warnings.") || startsWith(r, "sys.stderr.") ||
         startsWith(r, "sys.stdout.") || r == "pprint.pprint" || startsWith(r, "logger.") || startsWith(r, "log.") ||
         startsWith(r, "_log.") || startsWith(r, "_logger.");
}

bool isExceptionConstructor(std::string_view r) {
  const std::string_view last = lastSegment(r);
  return endsWith(last, "Error") || endsWith(last, "Exception") || last == "Warning";
}

std::vector<const py::Call *> callsIn(const py::PythonFacts &py, std::string_view function, LineRange lines) {
  std::vector<const py::Call *> out;
  for (const py::Call &c : py.calls)
    if (inFunction(c.function, function) && contains(lines, c.lines))
      out.push_back(&c);
  return out;
}

} // namespace kbaudit::semantic::scope
