#pragma once

#include "kbaudit/cxx/facts.h"
#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/kernels/inventory.h"

#include <set>
#include <string>

namespace kbaudit::kernels {

/// Adds the CUDA kernels (`__global__` definitions) and inline-PTX statements the Clang
/// front end found, with what each kernel computes: matmul when it reaches an mma/wgmma
/// instruction or a wmma call, otherwise from the device-work summaries of the kernel and
/// the device functions it calls (classifyCudaWork).
void addCudaKernels(const cxx::CxxFacts &cxx, KernelInventory &inv);

/// The work class of a CUDA kernel without tensor-core instructions, from the DeviceWork of
/// the kernel and of the device functions in `reached` (call-graph nodes reachable from it):
///   - a loop accumulating a product of two reads at different indices (`acc += A[..]*B[..]`
///     over k, the hand-written FMA GEMM or direct convolution) -> Matmul: it is the GEMM's
///     work done without tensor cores, so the kernel is not a fig leaf for a GEMM problem;
///   - any other loop accumulation, warp shuffles/reductions, atomics -> Reduction;
///   - shared memory with barriers but no recognised accumulation, or a reached callee whose
///     body is unseen (`opaqueCalls`: unresolved or library calls in device code; functions
///     declared but not defined) -> Unknown;
///   - otherwise Elementwise, or Copy when nothing computes on the values loaded.
/// A body with a parse error (in the kernel or a reached device function) is Unknown.
KernelWork classifyCudaWork(const cxx::CxxFacts &cxx, const cxx::CxxFunction &kernel,
                            const std::set<std::string> &reached, const std::set<std::string> &opaqueCalls);

/// Marks the CUDA kernels and PTX reached when Python calls `exported` of extension
/// `module` (-1: an unbound source, e.g. a library loaded through ctypes): the kernels the
/// export launches transitively, or every kernel of the module when the export is unknown.
void reachCudaExport(const cxx::CxxFacts &cxx, const embed::EmbedFacts &embedded, int module,
                     const std::string &exported, KernelInventory &inv);

} // namespace kbaudit::kernels
