#pragma once
// `name = lambda params: expr` is a def under another spelling: a function named `name` that
// returns `expr`. The rules ask about functions (the graded entry point, helpers forward calls,
// the memoized callee), so a body moved into a lambda must read as that function.

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::py {

/// `source` with every whole-statement `name = lambda params: expr` (module level or a class
/// body) spelled `def name(params): return expr` on the same lines; nullopt when there is none.
std::optional<std::string> lambdasAsDefs(std::string_view source, const PythonFacts &facts);

} // namespace kbaudit::py
