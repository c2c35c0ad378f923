#pragma once

// Which arm of a branch the graded call takes. A harness calls the entry point in a known way:
// with inputs from get_inputs() (CUDA tensors that do not require grad), under torch.no_grad(),
// with the module in training mode unless it calls eval(). A test on those values has a known
// outcome, so a kernel reached only when `x.requires_grad`, or a join only under
// `torch.is_grad_enabled()`, is not on the graded path. A test on state the solution keeps
// itself (a warm-up flag, a call counter, a captured graph) takes one arm on the first calls
// and another afterwards: both run, and the one that sets the state is the warm-up.

#include "kbaudit/python/facts.h"

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// What the harness is known to do when it calls the graded entry point. Rules fill it from
/// the run's suite profile (the semantic layer does not read problems/).
struct HarnessView {
  bool inputsRequireGrad = false; ///< get_inputs() tensors do not require grad
  bool gradEnabled = false;       ///< the graded calls run under torch.no_grad()
  bool training = true;           ///< the module is in training mode (no eval() call)
  bool cuda = true;               ///< the inputs are CUDA tensors on a machine with CUDA
};

enum class Outcome { True, False, Unknown };

struct ConditionReading {
  Outcome outcome = Outcome::Unknown;
  /// The test reads state the solution itself keeps (self attributes or module globals that
  /// some function writes): the outcome changes between calls.
  bool state = false;
  /// Why the outcome is known ("inputs from get_inputs() do not require grad"), for messages.
  std::string why;
};

/// Facts about the solution that decide harness-known values: its entry inputs and whether its
/// constructor switches the module to eval mode.
struct SolutionView {
  std::set<std::string> inputs;   ///< the entry point's parameter names (without self)
  bool evalInConstructor = false; ///< `self.eval()` / `self.train(False)` in `__init__`
  /// Attributes (`self.x`) and module globals that a function other than a constructor assigns:
  /// state that changes between calls.
  std::set<std::string, std::less<>> writtenState;
  /// Attributes a constructor sets once, to a literal (`self.fast_path = True`, `self.graph =
  /// None`), and nothing else assigns: configuration with a known value.
  std::map<std::string, py::Expr, std::less<>> constants;
  /// Local names bound once in a function to a value (`needs = torch.is_grad_enabled()`),
  /// keyed by "function\nname": a test on the name is a test on the value.
  std::map<std::string, py::Expr, std::less<>> locals;
};

SolutionView solutionView(const py::PythonFacts &facts, const std::set<std::string> &inputs);

/// The call puts its receiver in eval mode: `m.eval()` or `m.train(False)`.
bool entersEvalMode(const py::Call &c);

/// The outcome of a branch's test (Branch::cond) when the harness calls.
ConditionReading readCondition(const py::Branch &b, const HarnessView &harness, const SolutionView &solution);

/// Three-valued `not`.
Outcome negate(Outcome o);

} // namespace kbaudit::semantic
