#pragma once

// What a write reaches and carries (RUB012 asks it): which channel a file-opening call reaches (a descriptor number,
// a device such as /dev/stdout or /proc/self/fd/3, a file path), what text is written through
// the handle it returns, and whether that text or that file reads as a grader's verdict.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/process_values.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// What an `open`/`os.fdopen`/`Path.write_text` call opens.
struct Opened {
  bool writes = false;                            ///< the mode writes (w, a, x, +) or the method does
  std::optional<semantic::Descriptor> descriptor; ///< a descriptor number, or a device path naming one
  py::Expr what;                                  ///< the descriptor or path argument as written
  std::optional<semantic::PathParts> path;        ///< an ordinary file path
};
Opened openedTarget(const py::PythonFacts &py, const py::Call &c);

/// The static text written through what `c` opened: `write_text`'s argument, and for the handle
/// it is bound to (`with open(...) as f`), `f.write(...)`, `json.dump(obj, f)`,
/// `print(..., file=f)`, with names followed to their values.
std::vector<std::string> textWrittenThrough(const py::PythonFacts &py, const py::Call &c);

/// The static text of an expression: its folded string, the strings a name is bound to, the
/// string constants written inside it (a dict literal's keys).
std::vector<std::string> textOf(const py::PythonFacts &py, const py::Expr &e, const std::string &function);

/// Some text states a verdict or a measurement as a harness would: pass, success, correct,
/// verdict, speedup, score (whole words, any case).
bool anyVerdict(const std::vector<std::string> &texts);
inline bool readsAsVerdict(const py::PythonFacts &py, const py::Expr &e, const std::string &function) {
  return anyVerdict(textOf(py, e, function));
}

/// Whether a written file is the harness's results file: named like a result record or filled
/// with a verdict, and outside the solution's own cache, temporary or build directory.
struct ResultFile {
  bool report = false;
  bool decisive = false;
  std::string what; ///< "a result record `../results.json`"
  std::string note;
};
ResultFile judgeResultFile(const semantic::PathParts &path, bool verdictContent);

} // namespace kbaudit::semantic
