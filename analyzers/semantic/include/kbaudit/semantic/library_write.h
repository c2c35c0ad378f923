#pragma once

// Which library attribute an assignment replaces. The front end spells a write through a
// computed receiver as a chain with calls in it (Assignment::computedTarget:
// "torch.cuda.Event().__class__.elapsed_time"); rules that judge monkeypatches need the plain
// dotted name the grader would call ("torch.cuda.Event.elapsed_time"), and need to tell a
// patch of a library's class from a write to one object a library call returned.

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// The class of the object `callee(...)` returns, as far as a patch of `type(obj)` needs it:
/// a capitalised name is its own class (`torch.cuda.Event`), torch's tensor factories make a
/// `torch.Tensor`, the stream getters a `torch.cuda.Stream`; anything else is named by the
/// callee itself.
std::string classOfCallResult(std::string_view callee);

/// The plain dotted name of the library attribute `a` replaces: `resolved` for a write
/// through an import-rooted name chain, `computedTarget` with each `callee().__class__` turned
/// into its class otherwise. nullopt for writes to one object a library call returned
/// (`torch.nn.Linear(4, 4).extra = 1`), to a metaclass, or to nothing an import names. A
/// computed attribute name stays "<dynamic>" (see Assignment::nameCandidates).
std::optional<std::string> libraryAttributeWritten(const py::Assignment &a);

/// A later write in the same function puts the original back: its value is the attribute
/// itself or a name bound to it before (`orig = torch.allclose` ... `torch.allclose = orig`,
/// typically in a `finally`). The patch is then in force only while that function runs.
bool restoredLater(const py::PythonFacts &facts, const py::Assignment &a);

/// `a` itself puts back a value saved from the attribute it writes.
bool restoresOriginal(const py::PythonFacts &facts, const py::Assignment &a);

} // namespace kbaudit::semantic
