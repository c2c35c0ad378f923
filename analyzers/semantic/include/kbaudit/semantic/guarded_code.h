#pragma once

// Two questions about a guarded stretch of code, for RUB001 (caller sniffing): does the code an
// `if` guards change anything the grader sees, or does it only report; and does a string on
// some lines name the grader (its files or phase), which turns a generic caller inspection
// into one aimed at the grader.

#include "kbaudit/facts.h"

#include <string_view>

namespace kbaudit::semantic {

/// The code `b` guards only prints, logs or raises (a debug switch, a sanity check): its body
/// makes at least one call outside the test, every such call is a logging call or an exception
/// constructor, and the body assigns nothing and multiplies no matrices (`@`).
bool onlyReports(const py::PythonFacts &py, const py::Branch &b);

/// A string constant of `function` on `lines` names the grader (semantic::hasGraderWord);
/// docstrings count unless `skipDocstrings`.
bool stringNamesGrader(const py::PythonFacts &py, std::string_view function, LineRange lines, bool skipDocstrings);

} // namespace kbaudit::semantic
