#pragma once

// Library names reached without being written as a dotted name: a module imported by a
// string (`importlib.import_module("flash_attn")`, `__import__("triton")`) and an attribute
// fetched by a string (`getattr(torch, "topk")`). A forbidden-operation check (WRAP005) must
// read them as the import and the dotted name they are.

#include "kbaudit/facts.h"

#include <optional>
#include <string>

namespace kbaudit::semantic {

/// The module `importlib.import_module(name)` or `__import__(name)` imports, when `name` is
/// a complete string constant (itself or through a module-level binding); nullopt otherwise.
std::optional<std::string> dynamicImportTarget(const py::PythonFacts &py, const py::Call &c);

/// The dotted name `getattr(obj, "attr")` fetches (`torch.topk`), when the attribute is a
/// complete string constant and `obj` is a name or attribute chain whose root an import binds;
/// nullopt otherwise.
std::optional<std::string> getattrTarget(const py::PythonFacts &py, const py::Call &c);

} // namespace kbaudit::semantic
