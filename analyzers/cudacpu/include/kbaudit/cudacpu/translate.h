#pragma once

// CUDA C++ to plain C++ for the CPU runner (the runtime probes' kbaudit_probe/cudacpu runtime):
// kernel launches `k<<<grid, block, shared, stream>>>(args)` become calls into the runtime that
// run every thread of the grid as a fiber, `__shared__` declarations become per-block storage,
// the host code's device checks and device names (`x.is_cuda()`, `torch::kCUDA`, `"cuda"`)
// name the CPU, and `__CUDA_ARCH__` / `__CUDACC__` name an sm_90 device to the kernels only.
// Everything the CPU cannot run (inline PTX it does not emulate, tensor-core fragments,
// CUTLASS/CuTe, cuBLAS/cuDNN, TMA, grid-wide synchronisation, ...) is reported by name and line,
// never passed over. Clang (its lexer and Rewriter) stays inside this library: plain structs out.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::cudacpu {

/// Something in the source the CPU runner cannot run.
struct Unavailable {
  std::string feature; ///< "inline PTX mma.sync", "cuBLAS (cublasGemmEx)", "CUTLASS/CuTe templates"
  unsigned line = 0;   ///< 1-based line of the source as given
};

struct TranslateOptions {
  /// A CUDA unit (.cu: launches, __CUDA_ARCH__ as a device sees it); false for a C++ unit
  /// (.cpp: only the device mapping of host code).
  bool cuda = true;
  /// nvcc's --use_fast_math: expf, logf, sinf, powf, ... become their fast intrinsics.
  bool fastMath = false;
  /// The name #line directives give the translated unit, so compiler messages quote the source.
  std::string fileName = "cuda.cu";
};

struct Translation {
  std::string text;                     ///< the translated unit
  std::vector<Unavailable> unavailable; ///< in source order, one per feature and line
  unsigned launches = 0;                ///< kernel launches rewritten
  unsigned sharedDeclarations = 0;      ///< __shared__ declarations rewritten (extern ones included)
  unsigned locksteps = 0;               ///< warp lockstep points after writes through volatile variables
  std::vector<std::string> notes;       ///< what could not be rewritten and was left as it was
};

/// Translates one unit. Never throws; a source it cannot lex whole is translated as far as it
/// lexes and the notes say where it stopped.
Translation translate(std::string_view source, const TranslateOptions &options = {});

/// The unavailable features as one line: "unavailable: inline PTX mma.sync, line 212; ...".
std::string describe(const std::vector<Unavailable> &unavailable);

} // namespace kbaudit::cudacpu
