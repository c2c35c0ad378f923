#pragma once

// Where the Python code starts an authored kernel: the launch `kernel[grid](...)` of a Triton
// kernel, the call of a Python-DSL kernel, or the call of the extension export whose C++ reaches
// a CUDA kernel. Which of those run when graded is GradedPath's question.

#include "kbaudit/facts.h"

#include <vector>

namespace kbaudit::semantic {

/// The Python calls that start kernel `k`; empty when none is seen (a lookup by name, ctypes).
std::vector<const py::Call *> launchSites(const Facts &facts, const kernels::Kernel &k);

} // namespace kbaudit::semantic
