#pragma once

#include "kbaudit/python/facts.h"
#include "kbaudit/triton/facts.h"

namespace kbaudit::triton {

/// Derives the Triton facts of a solution from its Python facts. Never throws; a file
/// without @triton.jit functions gives empty facts (launches of kernels imported from
/// elsewhere are still listed, unresolved).
TritonFacts analyze(const py::PythonFacts &python);

} // namespace kbaudit::triton
