#pragma once

// Where a fact sits (which function, whether forward can
// reach it, whether it is a `__main__` self-test) and what kind of call it is (logging,
// file access), so each rule can say "this runs when the grader calls the model".

#include "kbaudit/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic::scope {

bool contains(LineRange outer, LineRange inner);
bool overlaps(LineRange a, LineRange b);
std::string lower(std::string_view s);

/// `fn` is `scope` or nested in it ("A.f.<inner>" is inside "A.f").
bool inFunction(std::string_view fn, std::string_view scope);

/// Where grading code runs the solution: functions reachable from forward, every method of
/// a class that has an entry point (its __init__ prepares what forward uses), and module
/// level outside an `if __name__ == "__main__":` block (import time).
class GradedScope {
public:
  explicit GradedScope(const Facts &facts);
  bool graded(std::string_view function, LineRange lines) const;
  bool inMainGuard(LineRange lines) const;
  /// The qualified name of the function a call at module scope or in `function` names.
  /// `self.helper()` in a method maps to "Class.helper"; a bare name to a free function.
  std::string calleeFunction(std::string_view function, const py::Call &call) const;
  std::string calleeFunction(std::string_view function, std::string_view resolved) const;

private:
  const Facts &facts_;
  std::vector<LineRange> mainGuards_;
  std::vector<std::string> modelClasses_;
};

/// print / logging / warnings / sys.stderr.write: calls that only report.
bool isLoggingCall(std::string_view resolved);
/// Exceptions being raised (their message strings are not file access).
bool isExceptionConstructor(std::string_view resolved);

/// Calls inside `lines` of `function` (nested functions included).
std::vector<const py::Call *> callsIn(const py::PythonFacts &py, std::string_view function, LineRange lines);

} // namespace kbaudit::semantic::scope
