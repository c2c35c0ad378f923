#pragma once

// The signals a harness bounds or aborts a run with, and what a handler installed for one does:
// RUB013 asks whether a solution takes such a signal away from the harness.

#include "kbaudit/python/facts.h"
#include "kbaudit/semantic/graded_scope.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// "SIGALRM" for `signal.SIGALRM`, `signal.Signals.SIGALRM`, 14 or a name bound to one, for
/// the signals a harness bounds or aborts a run with (time limits, watchdogs, crashes: ALRM,
/// VTALRM, PROF, TERM, INT, XCPU, XFSZ, SEGV, BUS, ABRT, HUP, QUIT; Linux numbers); "" otherwise.
std::string harnessSignal(const py::PythonFacts &py, const py::Expr &e);

/// The harness signals among the items of a list/tuple/set (or a name bound to one).
std::vector<std::string> harnessSignalsIn(const py::PythonFacts &py, const py::Expr &e);

/// The handler `v` puts back a saved one: `signal.getsignal(...)`'s value, or what an earlier
/// `signal.signal` returned, directly or through a name bound in `function`.
bool restoresHandler(const py::PythonFacts &py, const py::Expr &v, const std::string &function);

/// What the handler `v` installed by the call `install` does: true when it returns normally (so
/// the signal does nothing: a lambda that calls nothing, a function of the file's that neither
/// raises, exits nor calls code of the file's own), false when it raises or exits (or a lambda
/// calls something), nullopt when the facts cannot tell.
std::optional<bool> handlerSwallows(const py::PythonFacts &py, const scope::GradedScope &graded, const py::Expr &v,
                                    const py::Call &install);

} // namespace kbaudit::semantic
