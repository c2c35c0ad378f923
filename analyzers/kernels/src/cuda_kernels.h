#pragma once

#include "kbaudit/cxx/facts.h"
#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/kernels/inventory.h"

namespace kbaudit::kernels {

/// Adds the CUDA kernels (`__global__` definitions) and inline-PTX statements the Clang
/// front end found, with what each kernel computes (matmul when it reaches an mma/wgmma
/// instruction or a wmma call).
void addCudaKernels(const cxx::CxxFacts &cxx, KernelInventory &inv);

/// Marks the CUDA kernels and PTX reached when Python calls `exported` of extension
/// `module` (-1: an unbound source, e.g. a library loaded through ctypes): the kernels the
/// export launches transitively, or every kernel of the module when the export is unknown.
void reachCudaExport(const cxx::CxxFacts &cxx, const embed::EmbedFacts &embedded, int module,
                     const std::string &exported, KernelInventory &inv);

} // namespace kbaudit::kernels
