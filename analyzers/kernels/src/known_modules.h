#pragma once

#include "kbaudit/kernels/inventory.h"

#include <string_view>

namespace kbaudit::kernels {

/// True for the standard library and for installed packages solutions commonly import;
/// anything else is a module that would have to sit next to the solution.
bool isKnownModule(std::string_view topLevel);

/// True for decorators declaring a kernel in a Python DSL other than Triton (CuTe DSL,
/// numba.cuda, Helion, TileLang); Triton kernels come from the Triton analyzer.
bool isPythonDslKernelDecorator(std::string_view resolvedDecorator);

} // namespace kbaudit::kernels
