#pragma once

#include "kbaudit/source/line_range.h"

#include <string>
#include <vector>

namespace kbaudit {

/// Something kbaudit noticed about its input rather than about the solution's behaviour:
/// unreadable or malformed files, parse errors, sources it could not recover.
struct Diagnostic {
  enum class Severity { Note, Warning, Error };
  Severity severity = Severity::Warning;
  /// Stable machine-readable code, e.g. "syntax-error", "invalid-utf8", "binary-file".
  std::string code;
  std::string message;
  std::string file = "solution.py";
  LineRange lines;
};

/// An Error diagnostic means the file could not be analysed at all.
inline bool hasError(const std::vector<Diagnostic> &diags) {
  for (const auto &d : diags)
    if (d.severity == Diagnostic::Severity::Error)
      return true;
  return false;
}

const char *severityName(Diagnostic::Severity s);

} // namespace kbaudit
