#pragma once

// A branch condition's comparisons, each side a summarised expression. The Python facts keep
// a branch's test as source text (`py::Branch::condition`); rules that ask "is this a cache
// key compared with stored state" need its comparisons and, for each side, the names it reads
// and the root of its chain. The condition is split at its top-level `and`/`or`/`not` and
// comparison operators (outside brackets, string literals and comments), and each side is parsed by the
// Python front end as an expression of its own, so what a side reads comes from a syntax tree:
// a name inside a string literal or a comment of the condition is not read.
//
// Names inside a side are not resolved through the solution's imports (the side is parsed on
// its own): ask `names` and `root`, not `resolved`.

#include "kbaudit/python/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// One side of a comparison: its summary, and the calls made inside it as the front end
/// extracts them (arguments summarised, string arguments folded: `getattr(self, "_x")`).
/// Lines are the fragment's own, not the solution's.
struct Operand {
  py::Expr value;
  std::vector<py::Call> calls;
};

/// One comparison of a condition (`a is b`, `a != b`, `k in cache`), negation folded in.
struct ConditionComparison {
  Operand left, right;
  std::string op;       ///< "is", "is not", "in", "not in", "==", "!="
  bool negated = false; ///< `is not`, `!=`, `not in`, or under a `not`
  bool membership() const { return op == "in" || op == "not in"; }
  bool identityOperator() const { return op == "is" || op == "is not"; }
};

/// The comparisons of `condition` (source text of a test), in order.
std::vector<ConditionComparison> conditionComparisons(std::string_view condition);

/// `source` (one Python expression, possibly over several lines, with comments) parsed on its
/// own; kind Other and no names when it does not parse as one expression.
Operand operandOf(std::string_view source);

} // namespace kbaudit::semantic
