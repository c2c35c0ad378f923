#pragma once

// Which of the file's own functions a call runs, for the rules that follow the work of a
// branch or handler into the helpers it calls (PREC005, RUB005/RUB006 via semantic/arm_work,
// WRAP007): all of them must resolve `self.m(...)` and `f(...)` alike.

#include "kbaudit/facts.h"

#include <string>

namespace kbaudit::semantic {

/// The function `c` (made inside `caller`) names: `self.m(...)` a method of the caller's
/// class, `f(...)` a module-level function of the file, `Ops.f(...)` a static or class method
/// of a class of the file; nullptr for anything else (library calls, kernel launches, methods
/// of other objects).
const py::Function *helperCalled(const py::PythonFacts &py, const py::Call &c, const std::string &caller);

/// A method decorated @staticmethod or @classmethod: callable through its class.
bool calledThroughClass(const py::Function &fn);

} // namespace kbaudit::semantic
