#pragma once

// Which conditions gate on an exact problem size, for RUB005's shape-gated numerics.
// semantic/exact_size_test.h splits a condition into its equality/membership tests against a
// large integer; this answers the rest of the question from the facts: is the tested subject a
// size (a shape read, a shape-derived local, a helper's parameter, a constructor's size
// argument), and which names hold such a test's outcome (`use_fp8 = M == 16384`).

#include "kbaudit/python/facts.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// `name` (a Name or `self.attr`), read in `function`, holds a size: a local assigned from a
/// shape read (or from `self` attributes), a `self` attribute set in the class's __init__ (the
/// constructor's size arguments), or a parameter of a helper (not of forward). Anything that
/// is not a plain dotted name is not.
bool holdsSize(const py::PythonFacts &py, std::string_view name, const std::string &function);

/// The first clause of `condition` (in `function`) that tests a size for equality with, or
/// membership in, exact large problem sizes: its subject reads a shape or every item of it
/// holds a size. As written, for messages; nullopt when there is none.
std::optional<std::string> exactSizeGate(const py::PythonFacts &py, std::string_view condition,
                                         const std::string &function);
std::optional<std::string> exactSizeGate(const py::PythonFacts &py, const py::Expr &condition,
                                         const std::string &function);

/// Names bound to an exact-size gate, in the given functions and in every __init__
/// (`use_fp8 = M == 16384`, `self.big = n == 8192`), so a branch that tests the name gates on
/// the size too.
class SizeGateNames {
public:
  SizeGateNames(const py::PythonFacts &py, const std::set<std::string> &functions);
  /// The gate `name`, read in `function`, holds (a `self` attribute from any method of the
  /// class); nullopt when it holds none.
  std::optional<std::string> gateOf(std::string_view function, std::string_view name) const;

private:
  std::map<std::string, std::string> gates_;
};

} // namespace kbaudit::semantic
