#pragma once

// What runs when the harness calls the graded entry point: the statements whose enclosing
// branch arms the harness's inputs can take (harness_conditions.h), in the functions called
// from such statements. A kernel launched only under `if x.requires_grad:` is defined and
// reached by the call graph, but never runs when graded; a fold of running statistics under
// `if not self.training:` never runs in a training-mode harness.

#include "kbaudit/semantic/forward_reach.h"
#include "kbaudit/semantic/harness_conditions.h"

#include <map>
#include <set>
#include <vector>
#include <string>

namespace kbaudit::semantic {

struct Feasibility {
  bool runs = true;
  /// Only when an exception is raised: inside an except block.
  bool onlyOnException = false;
  /// Why it never runs: "under `x.requires_grad`, which is false when the harness calls
  /// (inputs from get_inputs() do not require grad)".
  std::string why;
};

class GradedPath {
public:
  GradedPath(const ForwardReach &reach, const HarnessView &harness);

  /// Whether a statement of the file can run on the harness's path, judged by its enclosing
  /// arms up to its def (not by whether the def runs).
  Feasibility statement(int stmt) const;
  /// The call runs when graded: its function runs and its statement is feasible (an except
  /// block counts as feasible).
  bool runs(const py::Call &c) const;
  /// The function can run when graded: an entry or a constructor, called from a statement that
  /// can run in a function that can, or one whose callers kbaudit cannot see (a callable handed
  /// on, a lookup by name): absence of a caller is not evidence that it never runs.
  bool runs(const std::string &qualname) const;
  /// Why a reached call does not run (the first blocking arm), "" when it runs.
  std::string whyNot(const py::Call &c) const;

  const SolutionView &solution() const { return solution_; }
  const HarnessView &harness() const { return harness_; }

private:
  std::string whyNot(const py::Call &c, int depth) const;

  const ForwardReach &reach_;
  HarnessView harness_;
  SolutionView solution_;
  /// Calls that run each function of the file (a def's name, `Fn.apply` for an autograd
  /// Function's forward, a callable passed as an argument).
  std::map<std::string, std::vector<const py::Call *>> callers_;
  std::set<std::string> roots_;
  mutable std::map<std::string, bool> memo_;
  mutable std::set<std::string> active_;
};

} // namespace kbaudit::semantic
