#pragma once

// PyTorch's process-wide precision switches and what setting them does: the boolean
// `torch.backends` flags (TF32, reduced-precision reductions, fp16 accumulation), the newer
// `fp32_precision` strings, their C++ counterparts in extension code, and the default
// floating dtype. A switch that lowers fp32 precision changes every later matmul or
// convolution in the process, the grader's reference included (PREC002).

#include "kbaudit/facts.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// A boolean switch whose `True` lowers precision.
struct PrecisionFlag {
  std::string_view target; ///< resolved attribute ("torch.backends.cuda.matmul.allow_tf32")
  std::string_view effect; ///< what `True` does, as a finding says it
  bool lowersByDefault;    ///< PyTorch's default already is the low-precision value
  /// The dtype and library work the switch changes: re-stating a default only matters where
  /// a grader turned it off and that work runs under it.
  std::string_view dtype;
  kernels::HeavyOpKind work;
};

/// The boolean precision switch `resolved` names; null for any other attribute.
const PrecisionFlag *precisionFlag(std::string_view resolved);

/// `resolved` is one of the `fp32_precision` strings (`torch.backends.fp32_precision`,
/// `torch.backends.cuda.matmul.fp32_precision`, the cuDNN ones), where any value but "ieee"
/// or "none" lowers precision.
bool isPrecisionString(std::string_view resolved);

/// A C++ call that lowers fp32 precision for the process or a cuBLAS handle:
/// `at::globalContext().setAllowTF32CuBLAS(true)` (and the cuDNN and reduced-reduction
/// setters, unless the argument is false or 0), `setFloat32MatmulPrecision` other than
/// "highest", `cublasSetMathMode` with a TF32 or tensor-op mode. The effect, as a finding
/// says it; nullopt for any other call.
std::optional<std::string> cxxPrecisionLowering(const cxx::CxxCall &c);

/// A dtype spelling that is below fp32: float16/half, bfloat16, the float8 types, and the
/// legacy `HalfTensor`/`BFloat16Tensor` tensor types.
bool isLowDtypeSpelling(std::string_view spelled);

/// The Python functions whose settings are in force while the graded entry point runs: the
/// functions it reaches (reachableFromEntry), and those that run before it, at import or
/// construction: module level (""), every `__init__`, and the file's own helpers they call,
/// however deep.
std::set<std::string> functionsInForceAtEntry(const Facts &facts);

} // namespace kbaudit::semantic
