#pragma once

// What part of an input an expression compares: a constant handful of its elements
// (`x[0, :16]`, `x.flatten()[::4096]`) or one reduction of the whole of it (`x.abs().sum()`),
// the question behind MEM004's sampled-content cache. The expression summary carries no
// subscript or call structure, so the answer reads the expression's source with the scans of
// python_expr_scan.h (kbaudit::semantic::pyexpr) here, once, instead of in the rule; an input
// named only in a string literal, a comment or as an attribute is not an input read.

#include "kbaudit/python/facts.h"

#include <set>
#include <string>

namespace kbaudit::semantic {

/// The first constant sample of one of `inputs` that `e` takes, as written (`x[0, :16]`);
/// "" when there is none or `e` reads none of `inputs`.
std::string constantSampleOf(const py::Expr &e, const std::set<std::string> &inputs);

/// The longest whole-input reduction `e` takes of one of `inputs`, as written up to the
/// reduction's `(` then `...)` (`x.abs().sum(...)`); "" when there is none.
std::string wholeReductionOf(const py::Expr &e, const std::set<std::string> &inputs);

} // namespace kbaudit::semantic
