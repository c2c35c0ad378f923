#pragma once

// Whether a returned expression is one of the function's inputs or a view of it (shares its
// storage): the question behind MEM003's "the output aliases the input". The chain of
// subscripts and view-like methods is read from the expression's structure (isViewOf in
// expr_reads.h); the expression must also read the parameter as a free name and start its
// chain at it, so a literal or comment that spells the name does not count.

#include "kbaudit/python/facts.h"

#include <string_view>

namespace kbaudit::semantic {

/// `e` is `param` itself or `param` followed only by subscripts and view-like methods or
/// attributes (`x`, `x[..., :n]`, `x.view(-1).t()`, `x.T`).
bool isViewOfParam(const py::Expr &e, std::string_view param);

} // namespace kbaudit::semantic
