#pragma once

// Which heavy compute a host-side C++ library call hands to a library: an ATen GEMM,
// convolution or attention op, a cuBLAS/cuBLASLt GEMM, a cuDNN convolution or graph
// execution. The call of the compute itself, not the handle, descriptor or heuristic setup
// around it. WRAP002 asks it of the library calls an exported extension function makes.

#include "kbaudit/facts.h"

#include <optional>
#include <string_view>

namespace kbaudit::semantic {

/// The heavy compute `c` runs in a library: ATen ops (functions and Tensor methods alike, by
/// their last `::` segment: `at::matmul`, `x.addmm_`, `at::_scaled_mm`, `at::conv2d`,
/// `at::scaled_dot_product_attention`, ...), cuBLAS gemm/gemv calls (`cublasSgemm`,
/// `cublasGemmEx`, `cublasHgemmBatched`, `cublasSgemv`), `cublasLtMatmul`, cuDNN's
/// convolution forward calls, and `cudnnBackendExecute` (a graph plan: counted as a GEMM).
/// nullopt for setup calls and for CUTLASS, CuTe and CUB, whose templates the solution
/// instantiates itself.
std::optional<kernels::HeavyOpKind> libraryCompute(const cxx::CxxCall &c);

/// How a finding names the library of a call category: "cuBLAS", "cuBLASLt", "cuDNN", else
/// "ATen".
const char *libraryName(cxx::CallCategory c);

} // namespace kbaudit::semantic
