#pragma once

// What runs while the grader imports the solution: the module body outside
// `if __name__ == "__main__":` and the functions it calls (`_install()`, `_warm()`), however
// deep. A patch or a regenerated input made there is in place before the first graded call,
// although no entry point reaches it.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/graded_scope.h"

#include <set>
#include <string>

namespace kbaudit::semantic {

/// Qualnames of the file's functions the module body calls at import (outside a main guard),
/// directly or through each other; a class constructed there brings its `__init__`.
std::set<std::string> functionsRunAtImport(const py::PythonFacts &facts, const scope::GradedScope &graded);

/// `function` runs at import: module level outside a main guard (judged by `lines`), or one of
/// `atImport` or a def nested in one.
bool runsAtImport(const std::set<std::string> &atImport, const scope::GradedScope &graded, std::string_view function,
                  LineRange lines);

} // namespace kbaudit::semantic
