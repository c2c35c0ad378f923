#pragma once

// One audited file as the multi-file outputs (`--output-format full|concise|grouped|junit|
// sarif`) need it: the annotation, the path to show and link, and the text of the files its
// findings point into, for columns and stable fingerprints.

#include "kbaudit/annotations/annotation.h"

#include <map>
#include <string>
#include <string_view>

namespace kbaudit::annotations {

struct CheckedFile {
  Annotation annotation;
  /// The solution's path as shown and linked: relative to the current directory (the checkout
  /// in CI) when it lies below it.
  std::string path;
  /// Text of each file a finding names (`solution.py`, a `kernel.cu` beside it), keyed by the
  /// finding's `file`; a file missing here gets no column and a line-free fingerprint.
  std::map<std::string, std::string> sources;

  /// Where a finding's file is shown: `path` for the solution, its sibling for another file.
  std::string pathOf(const std::string &findingFile) const;
  /// The text of a finding's file, or nullptr.
  const std::string *sourceOf(const std::string &findingFile) const;
};

/// A finding's region with columns (1-based). The start column is the first non-blank
/// character of the first line; the end column is one past the last non-blank character of
/// the last line (SARIF's exclusive endColumn). Columns are 0 when the text does not have the
/// lines (the text is absent or shorter), and then only the lines are meaningful.
struct Span {
  unsigned startLine = 0, startColumn = 0, endLine = 0, endColumn = 0;
};

/// How columns are counted: code points (what an editor and ruff show) or UTF-16 code units
/// (SARIF's default columnKind, which GitHub reads).
enum class ColumnUnit { CodePoint, Utf16 };

Span spanOf(std::string_view text, const LineRange &lines, ColumnUnit unit);

/// Line `line` (1-based) of `text` without its line break; empty when there is none.
std::string_view lineOf(std::string_view text, unsigned line);

} // namespace kbaudit::annotations
