#pragma once
// Code a solution runs from a string (`exec`, `compile`, `eval`). A string the evaluator folds
// whole, whose lines sit one per solution line at module level (a triple-quoted literal handed
// to exec directly or through a name), is read as the module code it is: the analysed text puts
// each of its lines on the solution line it is written on, so every fact keeps solution.py's
// line numbers and quotes. Any other string executed is code kbaudit cannot see: a diagnostic
// (`code-built-at-run-time`) that makes the run incomplete, never a silent absence.

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::py {

struct ExecutedCode {
  /// The text to analyse instead (same number of lines as the input); nullopt: nothing inlined.
  std::optional<std::string> inlined;
  /// Notes for what was inlined, warnings for what could not be seen.
  std::vector<Diagnostic> diagnostics;
};

/// Looks at the calls of `facts` (the analysis of `source`) that run code from a string.
ExecutedCode readExecutedCode(std::string_view source, const PythonFacts &facts);

/// The whole Python analysis with executed strings read as code: analyses `source`, inlines
/// what readExecutedCode can (up to a few rounds, for exec inside exec'd code) and adds its
/// diagnostics to the result. Lambdas bound to names are read as defs and decorators applied
/// by a call as decorators.
PythonFacts analyzeWithExecutedCode(std::string_view source);

} // namespace kbaudit::py
