#pragma once

// Counters of the graded calls, for RUB004 (call-count gating): a `self` attribute or module
// global bumped on every call's path, and a branch that compares one with a fixed number (a
// warm-up count), not a generation stamp compared with a stored key.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/graded_scope.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

struct CallCounter {
  std::string name;      ///< "self._calls" or "_CALLS"
  std::string owner;     ///< the class for self attributes, "" for module globals
  LineRange increment;   ///< where it is bumped
  std::string function;  ///< the function bumping it
};

/// `x += 1`, `x = x + 1`.
bool isIncrement(const py::Assignment &a);

/// Counters bumped (`+= 1`) in a graded function forward reaches (or one nested in it): `self`
/// attributes, and module globals bound at module level. Bumps in __init__ or in methods
/// forward never calls count nothing per call.
std::vector<CallCounter> perCallCounters(const Facts &facts, const scope::GradedScope &graded);

/// The first counter `b`'s test names (a `self` counter only from a method of its class).
const CallCounter *counterIn(const py::Branch &b, const std::vector<CallCounter> &counters);

/// `b` tests counter `c` for truth or compares it with a number, a literal or a name bound to
/// one (`> 3`, `% 2`, `>= self.warmup`).
bool isThreshold(const py::PythonFacts &py, const py::Branch &b, const CallCounter &c);

} // namespace kbaudit::semantic
