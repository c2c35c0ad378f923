#pragma once

#include "kbaudit/kernels/inventory.h"

#include <optional>
#include <string_view>

namespace kbaudit::kernels {

/// True for the standard library and for installed packages solutions commonly import;
/// anything else is a module that would have to sit next to the solution.
bool isKnownModule(std::string_view topLevel);

/// The kind of kernel a decorator (resolved dotted name) declares, if it declares one.
std::optional<KernelKind> kernelDecoratorKind(std::string_view resolvedDecorator);

} // namespace kbaudit::kernels
