#pragma once

// ptxas's resource report (`ptxas -v`): registers, shared memory, stack frame and spills per
// function, matched to the kernels read from the PTX by mangled name.

#include "kbaudit/compiled/facts.h"

#include <string_view>
#include <vector>

namespace kbaudit::compiled {

void applyResources(std::string_view ptxasLog, std::vector<CompiledKernel> &kernels);

} // namespace kbaudit::compiled
