#pragma once

#include "kbaudit/kernels/inventory.h"

#include <optional>
#include <set>
#include <string>

namespace kbaudit::kernels {

/// The heavy-operation class of a PyTorch call (resolved name, or a tensor method when the
/// receiver is not a module), or of an nn module class; nullopt for light operations.
std::optional<HeavyOpKind> classifyLibraryCall(const py::Call &call);
std::optional<HeavyOpKind> classifyModuleClass(std::string_view resolvedClass);

/// The inventory's work class of a Triton kernel's work kind.
KernelWork workOfTriton(triton::WorkKind kind);

/// Collects the heavy library operations of the reachable functions (calls, `@`, and calls
/// of nn modules stored on self).
void summarizeWork(const py::PythonFacts &python, const std::set<std::string> &reachable, KernelInventory &inv);

} // namespace kbaudit::kernels
