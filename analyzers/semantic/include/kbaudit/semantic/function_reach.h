#pragma once

// Which of a file's functions a given function reaches through calls, over one file's
// Python facts (the solution's or the reference's alike), and whether any of them launches
// authored code. WRAP004 compares the code the reference's entry reaches with the code the
// solution's entry reaches.

#include "kbaudit/facts.h"

#include <vector>

namespace kbaudit::semantic {

/// `entry` and the functions of `py` it reaches, in discovery order: a bare call names a
/// nested def or a module function, `self.m(...)` a method of the entry's class, and any other
/// method call `obj.m(...)` every method `m` of the file (the object's class is unknown); calls
/// resolved through an import are library calls.
std::vector<const py::Function *> functionsReachedFrom(const py::PythonFacts &py, const py::Function &entry);

/// One of `fns` launches a Triton kernel or calls into a compiled extension.
bool launchesAuthoredCode(const Facts &f, const std::vector<const py::Function *> &fns);

} // namespace kbaudit::semantic
