#pragma once

// The ruff-style renderings of several checked files (`--output-format full|concise|grouped|
// junit`, for `check` and `audit`). Every input-derived piece goes through terminalSafe (text)
// or an XML writer (junit); colour codes are only kbaudit's own.

#include "kbaudit/annotations/checked_file.h"

#include <string>
#include <vector>

namespace kbaudit::annotations {

struct TextStyle {
  bool color = false; ///< ANSI colours (--color always, or auto on a terminal without NO_COLOR)
};

/// Per file: run id and verdict, summary, each finding as `path:line:col: RULE name [class,
/// confidence] message` with its first source line beneath, then suite, skipped rules and
/// diagnostics. What `--output-format full` (and `text`) prints.
std::string toFull(const std::vector<CheckedFile> &files, TextStyle style);

/// One line per finding, `path:line:col: RULE [class] message`, and one `path: verdict` line
/// per file that has no finding but is not clean; then `Found N findings in M files.`
std::string toConcise(const std::vector<CheckedFile> &files, TextStyle style);

/// Findings grouped under their file, `  line:col RULE [class] message`, the verdict on the
/// file's heading line.
std::string toGrouped(const std::vector<CheckedFile> &files, TextStyle style);

/// JUnit XML: one <testsuite> per file, one failed <testcase> per finding a baseline has not
/// accepted (the rule id is its name), a passed one for a file without findings, an <error>
/// for a file that could not be audited. CI systems show it as a test report.
std::string toJunit(const std::vector<CheckedFile> &files);

} // namespace kbaudit::annotations
