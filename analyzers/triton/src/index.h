#pragma once

// Lookups over the Python facts that every Triton pass needs: facts grouped by the
// function they are in, the call fact behind a call expression, and the binding a name
// had at a use.

#include "kbaudit/python/facts.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::triton::detail {

class Index {
public:
  explicit Index(const py::PythonFacts &facts);

  const py::PythonFacts &py() const { return py_; }
  const std::vector<const py::Call *> &callsIn(std::string_view function) const;
  const std::vector<const py::Assignment *> &assignmentsIn(std::string_view function) const;

  /// The call fact an expression of kind Call stands for: the outermost call in
  /// `function`, inside the expression's lines, whose callee text starts the expression
  /// (for `x.half().contiguous()` that is the `.contiguous` call). Null when none.
  const py::Call *callFor(const py::Expr &e, std::string_view function) const;
  /// The same for a call written as `text` somewhere in `lines` (a receiver text).
  const py::Call *callForText(std::string_view text, LineRange lines, std::string_view function) const;

  /// The plain `name = value` binding of `name` in `function` that a use at `line` sees:
  /// the latest one before the line, else the last one in the function (a loop-carried
  /// value rebound further down), else, when `moduleFallback`, the last module-level one.
  const py::Assignment *bindingBefore(std::string_view function, std::string_view name, unsigned line,
                                      bool moduleFallback) const;
  /// Every plain binding of `name` in `function`.
  std::vector<const py::Assignment *> bindingsOf(std::string_view function, std::string_view name) const;

  /// Calls that invoke the Python function `f` directly: `f(...)` for a free function,
  /// `self.f(...)` / `Class.f(...)` for a method.
  std::vector<const py::Call *> callersOf(const py::Function &f) const;

private:
  const py::PythonFacts &py_;
  std::map<std::string, std::vector<const py::Call *>, std::less<>> calls_;
  std::map<std::string, std::vector<const py::Assignment *>, std::less<>> assignments_;
};

/// The argument bound to parameter `index` (named `name`) of a call, or null. Positional
/// arguments after a `*` unpacking cannot be placed and give null.
const py::Expr *argumentFor(const std::vector<py::Argument> &args, unsigned index, std::string_view name);

/// A library name: the call resolves to a dotted name under `triton.` that is not a call
/// chain or a subscript (`triton.language.load(...).to` is a tensor method, not a library call).
bool isTritonName(std::string_view resolved);

/// Last dotted segment.
std::string_view lastSegment(std::string_view dotted);

} // namespace kbaudit::triton::detail
