#pragma once

// What the solution does with a path string: which calls it flows into, and what each call does
// to a path it is given (reads it, imports or runs it, hands it to a process, changes it). RUB002
// asks it of the strings that name a grader's file or other runs' outputs.

#include "kbaudit/python/facts.h"

#include <vector>

namespace kbaudit::semantic {

/// Ordered by strength: a call that does more to a path ranks higher.
enum class PathAccess { None, Read, Execute, Process, Modify };

/// What `c` does to a path it is given: `open` by its mode, `write_text`/`unlink`/`shutil.*`/
/// `os.rename`/`Path.replace(target)` modify, `exec`/`runpy`/`importlib` execute, `os.system`/
/// `subprocess.*` run a process (modify when the command's static words edit: sed, rm, cp, mv,
/// tee, patch, a redirection, echo), `read_text`/`exists`/`glob`/`os.listdir`/`load` read.
PathAccess pathAccessOf(const py::Call &c);

/// The calls the string constant `s` flows into: the calls of its own statement, and the calls
/// that read (as an argument, or in their receiver or callee as written) a name the string, or
/// a value built from it, is bound to; names followed up to 16 deep.
std::vector<const py::Call *> callsReceiving(const py::PythonFacts &facts, const py::StringConstant &s);

} // namespace kbaudit::semantic
