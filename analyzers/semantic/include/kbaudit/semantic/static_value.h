#pragma once

// Static evaluation of the small values rules compare against (flags, precision names),
// following a Name to its module-level binding.

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>

namespace kbaudit::semantic {

/// The expression itself, or the value of the last module-level binding of the Name it is.
const py::Expr &bindingOf(const py::PythonFacts &facts, const py::Expr &e);

/// True/False for bool and number literals (and Names bound to them); nullopt when unknown.
std::optional<bool> staticTruth(const py::PythonFacts &facts, const py::Expr &e);

/// A folded string, or for names/attributes the resolved dotted name ("torch.float16").
std::optional<std::string> staticText(const py::PythonFacts &facts, const py::Expr &e);

/// A string the expression folds to completely, itself or through the Name's module-level
/// binding; nullopt for anything else, a name whose value is not a string included (its
/// spelling is not its value, unlike staticText).
std::optional<std::string> staticString(const py::PythonFacts &facts, const py::Expr &e);

} // namespace kbaudit::semantic
