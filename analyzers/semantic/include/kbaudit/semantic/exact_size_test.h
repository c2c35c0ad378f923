#pragma once

// Tests of exact problem sizes in a condition (`M == 16384`, `(M, N, K) == (4096, 4096, 4096)`,
// `n in (4096, 8192)`, `not x.shape[0] != 8192`), for RUB005's shape-gated numerics. The model
// keeps a condition's comparisons as written (`Branch::condition`, a comparison's `Expr::text`),
// so this is the one place that splits them; rules get the subjects and ask the rest of their
// question (is each subject a size?) of the facts.

#include "kbaudit/python/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// Sizes below this are head dims, group sizes and tile widths, not problem sizes.
constexpr long kLargeProblemSize = 512;

struct ExactSizeTest {
  std::string subject;            ///< the side that is not the constant, as written
  std::vector<std::string> items; ///< its items: "M", "N" of `(M, N)`; the subject itself when single
  bool subjectReadsShape = false; ///< it reads .shape / .size() / .numel() / len() / .ndim / .dim()
  std::string clause;             ///< the clause as written, for messages
};

/// Every top-level `and`/`or` clause of the condition that compares something (not a literal,
/// not alignment arithmetic with `%` or `//`) for equality or membership with an integer literal
/// or a tuple/list/set of them, one of which is at least kLargeProblemSize. In clause order.
std::vector<ExactSizeTest> exactSizeTests(std::string_view condition);

/// The same of an expression: a comparison, boolean operation or negation; none for other kinds.
std::vector<ExactSizeTest> exactSizeTests(const py::Expr &e);

} // namespace kbaudit::semantic
