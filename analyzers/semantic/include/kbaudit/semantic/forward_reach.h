#pragma once

// What the graded call runs, read wider than KernelInventory::reachableFunctions: the timing
// rules (TIME001-TIME004) judge streams, graphs and workers that live in helper classes and in
// the harness's other entry points, so they need one answer to "does forward run this
// function", "which local function does this callable name", "does this function do GPU work"
// and "which extension exports does forward call".

#include "kbaudit/facts.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kbaudit::semantic {

class ForwardReach {
public:
  /// `reference` (may be null) and `modelClass` name the harness's other entry points:
  /// module-level functions the reference defines and the solution redefines (`run`,
  /// `decode_steps`) are entries too.
  ForwardReach(const Facts &facts, const py::PythonFacts *reference, const std::string &modelClass);
  // Not copied: tails_ views the strings of this object's own functions_.
  ForwardReach(const ForwardReach &) = delete;
  ForwardReach &operator=(const ForwardReach &) = delete;

  const Facts &facts() const { return facts_; }
  const py::PythonFacts &python() const { return facts_.python; }

  /// Forward (or a function it reaches) runs this Python function. Beyond the inventory's
  /// walk this follows methods of objects a function builds (`st = _State(...); st.run(x)`),
  /// callables passed as arguments, nested defs and the harness's module-level entries.
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
  /// The same for a dotted name (a call's callee or an expression's resolved name).
  std::string resolveCallableName(std::string_view name, const std::string &from) const;
  /// The function of this file a call runs, when forward reaches it: a def, a method, or the
  /// forward of a module of a class of this file (`self.block(x)` with `self.block = Block()`).
  /// "" for kernel launches and everything else.
  std::string localCallee(const py::Call &c) const;

  /// The function (or what it calls, a few levels deep) launches a kernel, calls an
  /// extension export, replays a graph or runs a torch operator.
  bool doesWork(const std::string &qualname) const;
  /// The function builds or compiles code (load_inline, cpp_extension.load, a compiler
  /// subprocess, triton.compile) and does no work of its own.
  bool onlyBuilds(const std::string &qualname) const;

  /// The values `name` (a Name or `self.attr`) is bound to: assignments in `from`, at module
  /// level, and for `self.attr` in any method of `from`'s class.
  std::vector<const py::Expr *> bindings(std::string_view name, const std::string &from) const;
  /// The class `self` is an instance of in `from`: its own class for a method, the calling
  /// methods' class for a module-level helper they hand their `self` to.
  std::string receiverClass(const std::string &from) const;
  /// Some binding of `name` is a call whose resolved callee is one of `callees`.
  bool boundToCall(std::string_view name, const std::string &from, const std::vector<std::string_view> &callees) const;

  /// Indices into CxxFacts::exports that forward reaches through extension calls.
  const std::vector<std::size_t> &reachedExports() const { return exports_; }

private:
  bool doesWork(const std::string &qualname, int depth, std::set<std::string> &seen) const;
  bool builds(const std::string &qualname, int depth, std::set<std::string> &seen) const;
  void collectExports();
  void addHarnessEntries(const py::PythonFacts *reference, const std::string &modelClass);
  void extendReach();
  void visit(const std::string &qualname, std::vector<std::string> &queue);

  const Facts &facts_;
  std::set<std::string> reached_;
  std::vector<std::string> entries_;
  std::set<std::string> classes_;
  std::set<std::string> inputs_;
  std::set<std::string, std::less<>> functions_;
  std::set<std::string> tritonKernels_;
  std::map<std::string, std::vector<const py::Call *>> calls_;
  std::set<std::string> extensionCallers_;
  std::vector<std::size_t> exports_;
  /// The file's assignments by target text, in file order: bindings() is asked for every call
  /// with a receiver and every name resolveCallableName does not find, and scanning all
  /// assignments each time was most of this model's cost.
  std::unordered_map<std::string_view, std::vector<const py::Assignment *>> assignmentsTo_;
  /// Every function qualname and each of its tails after a dot ("A.f.g": "A.f.g", "f.g", "g"):
  /// a name that is none of these names no function however it is scoped, so
  /// resolveCallableName answers most callees (`torch.empty`) without building candidates.
  std::unordered_set<std::string_view> tails_;
};

/// The call's argument at `position`, or the keyword one when it is not passed positionally.
const py::Argument *argumentOf(const py::Call &c, unsigned position, std::string_view keyword);

} // namespace kbaudit::semantic
