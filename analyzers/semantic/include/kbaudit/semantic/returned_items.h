#pragma once

// What a function hands back, item by item: its own `return` statements (not a nested def's)
// and, for a returned tuple or list literal, each element; and whether every returned item is
// state kept across calls (the stored result of a cache hit).

#include "kbaudit/python/facts.h"

#include <vector>

namespace kbaudit::semantic {

/// A `return` statement of a function and the value it returns.
struct ReturnStatement {
  LineRange lines;
  const py::Expr *value = nullptr; ///< into the facts' returns
};

/// `fn`'s own return statements, in order.
std::vector<ReturnStatement> returnsOf(const py::PythonFacts &facts, const py::Function &fn);

/// Returned elements: the items of a returned tuple or list literal, else the value itself;
/// none for a bare `return`.
std::vector<const py::Expr *> returnedItems(const py::Expr &returned);

/// Every item of `returned` is state kept across calls (semantic::isStoredState), or a local of
/// `fn` bound to such state other than through a call (`out = self._out`).
bool returnsStoredState(const py::PythonFacts &facts, const py::Function &fn, const py::Expr &returned);

} // namespace kbaudit::semantic
