#pragma once

// What code learns about who is calling it: stack frames, the command line, the __main__ module,
// `sys.modules`, `/proc/self/cmdline`, and environment variables named like a harness's. Followed
// through the helpers that return it and the names bound from it, so RUB001 can ask of a branch
// whether it decides on the caller.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/scoped_names.h"

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kbaudit::semantic {

/// What one stretch of code learns about its caller.
struct CallerSniff {
  std::string how;                  ///< "inspect.stack()", "sys.argv", "the environment ('KB_BENCH')"
  bool graderString = false;        ///< it also holds a string naming a grader file or phase
  bool env = false;                 ///< only through environment variables
  std::vector<std::string> helpers; ///< the helper functions the answer came through
  explicit operator bool() const { return !how.empty(); }
};

/// A string names the grading phase or the grader's files ("bench", "check", "timeit",
/// "grade", "eval", "pytest", "harness", "correct", "verify", "judge", "profil"; any case).
bool hasGraderWord(std::string_view s);

class CallerKnowledge {
public:
  explicit CallerKnowledge(const Facts &facts);

  /// Caller inspection inside `lines` of `fn` (nested defs included when `nested`). Environment
  /// and sys.modules lookups count only when a string on the same line names the grader (most
  /// environment reads are the author's own knobs).
  CallerSniff sniffIn(std::string_view fn, LineRange lines, bool nested) const;

  /// What a function whose result depends on its caller learns, or nullptr (entry points are
  /// never such helpers: their branches are what a rule reports).
  const CallerSniff *helper(const std::string &qualname) const;

  /// A caller-dependent name among a branch test's dotted names, told through the name.
  CallerSniff nameAmong(std::string_view function, const std::vector<std::string> &names) const;

private:
  const Facts &facts_;
  const py::PythonFacts &py_;
  scope::GradedScope scope_;
  /// Where the file inspects its caller at all (a frame, argv, /proc, sys.modules or environment
  /// access, by function and lines): a stretch holding none of these sniffs nothing, so sniffIn
  /// answers it without scanning every call, name and string of the file (it is asked once per
  /// assignment the fixpoint follows).
  struct Site {
    std::string function;
    LineRange lines;
  };
  std::vector<Site> sites_;
  std::map<std::string, CallerSniff> helpers_; ///< functions whose result depends on the caller
  ScopedNames<CallerSniff> tainted_;           ///< names bound from caller-dependent code
  /// The file's calls by the function they are made in, in file order: readsTaint is asked once
  /// per assignment the fixpoint follows, and scanning every call of the file for each was
  /// quadratic in the file's size.
  std::unordered_map<std::string_view, std::vector<const py::Call *>> callsBy_;

  void propagate();
  CallerSniff readsTaint(std::string_view fn, LineRange lines, const py::Expr *value, bool nested = false) const;
  static CallerSniff named(const ScopedNames<CallerSniff>::Entry *entry);
};

} // namespace kbaudit::semantic
