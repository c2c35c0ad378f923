#pragma once

// Shared reading of the Python facts for the timing-integrity rules (TIME001-TIME004):
// which functions forward runs, what a callable expression names, whether a function
// does GPU/tensor work, and which extension exports forward calls.

#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/check.h"
#include "kbaudit/semantic/python_text.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules::timing {

class PyIndex {
public:
  /// `problem` (may be null) names the harness's other entry points: module-level
  /// functions the reference defines and the solution redefines (`run`, `decode_steps`).
  PyIndex(const Facts &facts, const problems::ProblemContext *problem);

  const Facts &facts() const { return facts_; }
  const py::PythonFacts &python() const { return facts_.python; }

  /// Forward (or a function it reaches) runs this Python function.
  bool reached(const std::string &qualname) const { return reached_.count(qualname) > 0; }
  bool knownEntry() const { return !entries_.empty(); }
  const std::vector<std::string> &entries() const { return entries_; }
  /// Parameter names of the entry points (the inputs the harness passes), without `self`.
  const std::set<std::string> &inputNames() const { return inputs_; }

  const std::vector<const py::Call *> &callsIn(const std::string &qualname) const;
  /// Calls in the function and in the defs nested in it.
  std::vector<const py::Call *> callsWithin(const std::string &qualname) const;

  /// The local function a callable expression names, seen from inside `from`
  /// (`_worker`, `self._hook`, `Cls.method`, a nested def, `functools.partial(fn, ...)`);
  /// "" when it is not a function of this file.
  std::string resolveCallable(const py::Expr &e, const std::string &from) const;
  std::string resolveCallableText(std::string_view text, const std::string &from) const;

  /// The function (or what it calls, a few levels deep) launches a kernel, calls an
  /// extension export, replays a graph or runs a torch operator.
  bool doesWork(const std::string &qualname) const;
  /// The function builds or compiles code (load_inline, cpp_extension.load, a compiler
  /// subprocess, triton.compile) and does no work of its own.
  bool onlyBuilds(const std::string &qualname) const;

  /// The values `text` (a Name or `self.attr`) is bound to: assignments in `from`, at module
  /// level, and for `self.attr` in any method of `from`'s class.
  std::vector<const py::Expr *> bindings(std::string_view text, const std::string &from) const;
  /// Some binding of `text` is a call whose resolved callee is one of `callees`.
  bool boundToCall(std::string_view text, const std::string &from,
                   const std::vector<std::string_view> &callees) const;

  /// Indices into CxxFacts::exports that forward reaches through extension calls.
  const std::vector<std::size_t> &reachedExports() const { return exports_; }

private:
  bool doesWork(const std::string &qualname, int depth, std::set<std::string> &seen) const;
  bool builds(const std::string &qualname, int depth, std::set<std::string> &seen) const;
  void collectExports();
  void addHarnessEntries(const problems::ProblemContext *problem);
  void extendReach();
  void visit(const std::string &qualname, std::vector<std::string> &queue);

  const Facts &facts_;
  std::set<std::string> reached_;
  std::vector<std::string> entries_;
  std::set<std::string> classes_;
  std::set<std::string> inputs_;
  std::set<std::string> functions_;
  std::set<std::string> tritonKernels_;
  std::map<std::string, std::vector<const py::Call *>> calls_;
  std::set<std::string> extensionCallers_;
  std::vector<std::size_t> exports_;
};

/// `torch.cuda.current_stream()` / `default_stream()` or a name bound to one.
bool isCallerStream(const PyIndex &index, const py::Expr &e, const std::string &from);

/// `text` contains `name` as a whole identifier (the semantic layer's C-identifier match).
using semantic::pytext::mentionsIdentifier;

/// First positional argument, or the keyword one.
const py::Argument *argument(const py::Call &c, unsigned position, std::string_view keyword);

/// Base of TIME001-TIME004: each reads forward's reach through a PyIndex and has nothing to
/// say about a file without an entry point, so the index is built and the skip reported
/// here once.
class TimingCheck : public Check {
public:
  void run(const CheckContext &ctx, FindingSink &sink) const final;

protected:
  virtual void check(const CheckContext &ctx, const PyIndex &index, FindingSink &sink) const = 0;
};

} // namespace kbaudit::rules::timing
