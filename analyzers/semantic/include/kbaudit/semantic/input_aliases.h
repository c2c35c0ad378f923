#pragma once

// Which names of a function stand for the caller's data: its parameters (less the receiver)
// and the locals bound to them or to parts and views of them (`st = state[3]`,
// `x2 = x.view(-1)`, `w = x.T`), from the names and chain roots of the bound values. The MEM
// rules ask it to tell an input's identity or storage from values computed from it.

#include "kbaudit/python/facts.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// Parameters that carry the caller's data: all but the receiver (`self`/`cls`).
std::vector<std::string> inputParams(const py::Function &fn);

/// The input parameters of `fn` plus local names bound to them or to parts and views of them
/// (`st = state[3]`, `ckv = st["c_kv"]`, `x2 = x.view(-1)`); not results of computations.
std::set<std::string> inputAliases(const py::PythonFacts &facts, const py::Function &fn);

/// `name` is assigned inside `fn` before `line` (0: anywhere).
bool reboundBefore(const py::PythonFacts &facts, const py::Function &fn, std::string_view name, unsigned line = 0);

} // namespace kbaudit::semantic
