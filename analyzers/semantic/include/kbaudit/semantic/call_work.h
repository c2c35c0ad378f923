#pragma once

// Which calls do work the timing is meant to measure, for the MEM rules: a cache hit that
// makes only inert calls (views, metadata, allocation, builtins) before it returns serves a
// stored result; one that launches a kernel or calls a method recomputes.

#include "kbaudit/python/facts.h"

#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// A call that does no work the timing is meant to measure (metadata, views, copies, allocation,
/// builtins, by its method or callee name): it cannot stand for recomputing a result. A call
/// that launches a kernel is never inert.
bool isInertCall(const py::Call &c);

/// Calls in `fn` (and its nested defs) that start on `lines`.
std::vector<const py::Call *> callsOn(const py::PythonFacts &facts, std::string_view fn, LineRange lines);

/// Some call on `lines` of `fn`, other than those inside `test`, is not inert.
bool computesOn(const py::PythonFacts &facts, const py::Function &fn, LineRange lines, LineRange test);

} // namespace kbaudit::semantic
