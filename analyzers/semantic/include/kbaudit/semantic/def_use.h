#pragma once

// Def-use over the Python facts: which assignments bind a name a function reads, and whether a
// value is a read-back of some state. Rules ask this to tell a restore of a saved setting from
// a new one, or a key built in a helper from one built in place.

#include "kbaudit/python/facts.h"

#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// Assignments binding `name` as `function` sees it: a plain name bound in the function itself
/// or at module level; `self.x` bound in any method of the function's class.
std::vector<const py::Assignment *> bindingsOf(const py::PythonFacts &facts, std::string_view name,
                                               std::string_view function);

/// `e` reads the current value of a setting: the attribute `dotted` itself, a call of `getter`,
/// or a name bound (in `function`) to either. Writing such a value back restores the setting.
bool readsBackSetting(const py::PythonFacts &facts, const py::Expr &e, std::string_view function,
                      std::string_view dotted, std::string_view getter = {});

} // namespace kbaudit::semantic
