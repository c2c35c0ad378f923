#pragma once

// Readings of expression text shared by the entry-output analyses (output_writes.cpp,
// partial_compute.cpp): which name an expression starts from, whether it is that name's
// storage (the tensor itself, an item, a view) or only its metadata, and the def-use walk
// over the assignments of one function. Private to the semantic layer.

#include "kbaudit/python/facts.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic::entrytext {

/// The first identifier of an expression ("state" in `(state[3]["c_kv"])`, "x" in `*x`).
std::string_view headName(std::string_view e);

/// Methods returning a view or an alias of their receiver (`view`, `reshape`, `t`, `narrow`,
/// `contiguous`, `split`, `numpy`, ...): writing the result writes the receiver's storage.
bool isViewMethod(std::string_view method);

/// `e` denotes the storage of a name in `names` (the name itself, an item or slice of it,
/// a view-method chain on it, `.T`/`.data`), not a value computed from it nor its metadata.
bool isStorageOf(std::string_view text, const std::set<std::string> &names);
inline bool isStorageOf(const py::Expr &e, const std::set<std::string> &names) { return isStorageOf(e.text, names); }

/// `text` mentions a name of `names` other than to read its metadata (`.shape`, `.size(`,
/// `.numel(`, `.dtype`, `.device`, `.stride(`, `.dim(`, `.ndim`, `len(x)` is not recognised
/// and counts as a use).
bool usesStorage(std::string_view text, const std::set<std::string> &names);

/// A method name of an in-place tensor operation (`copy_`, `add_`, `index_put_`): ends with
/// one underscore and is not a dunder.
bool isInPlaceMethod(std::string_view method);

/// The assignments of `function` and the defs nested in it, in source order.
std::vector<const py::Assignment *> assignmentsIn(const py::PythonFacts &py, const std::string &function);
/// The calls of `function` and the defs nested in it.
std::vector<const py::Call *> callsIn(const py::PythonFacts &py, const std::string &function);

} // namespace kbaudit::semantic::entrytext
