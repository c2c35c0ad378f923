#pragma once

// Whether the value a call makes is what a function hands back: the question behind "forward
// returns an instance of this class" (TIME002's lazy tensors, RUB014's comparison-answering
// subclasses). The answer follows names bound to the call and the file's own helpers that
// return it, a few levels deep; a value passed through a library call is not followed.

#include "kbaudit/python/facts.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// The value `c` makes is what its enclosing function returns: the returned expression
/// itself, an item of a returned tuple or list, an arm of a returned conditional expression,
/// or a name bound to it (through up to three name-to-name copies) that is returned so.
bool returnedByItsFunction(const py::PythonFacts &facts, const py::Call &c);

/// The value `c` makes reaches what one of `entries` returns: returned by its function and,
/// when that is not an entry, returned in turn by a call of that function (`self.m(...)`,
/// `f(...)`), up to three helpers deep.
bool reachesEntryReturn(const py::PythonFacts &facts, const py::Call &c, const std::vector<std::string> &entries);

} // namespace kbaudit::semantic
