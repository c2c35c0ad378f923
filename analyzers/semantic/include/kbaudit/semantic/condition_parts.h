#pragma once

// A branch test's equality, identity and membership comparisons, each side a summarised
// expression with the calls made inside it. The Python front end reads the comparisons off the
// syntax tree (py::Branch::comparisons, through `and`/`or`/`not`/parentheses); this keeps the
// ones a cache key is checked with and folds the operator's own negation into `negated`.

#include "kbaudit/python/facts.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// One side of a comparison: its summary and the calls made inside it (py::Operand).
using Operand = py::Operand;

/// One comparison of a condition (`a is b`, `a != b`, `k in cache`), negation folded in.
struct ConditionComparison {
  Operand left, right;
  std::string op;       ///< "is", "is not", "in", "not in", "==", "!="
  bool negated = false; ///< `is not`, `!=`, `not in`, or under a `not`
  bool membership() const { return op == "in" || op == "not in"; }
  bool identityOperator() const { return op == "is" || op == "is not"; }
};

/// The `is`/`is not`/`in`/`not in`/`==`/`!=` comparisons of branch `b`'s test, in order
/// (ordering comparisons such as `n < LIMIT` are left out).
std::vector<ConditionComparison> conditionComparisons(const py::Branch &b);

} // namespace kbaudit::semantic
