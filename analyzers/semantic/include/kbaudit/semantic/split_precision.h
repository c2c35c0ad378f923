#pragma once

// Split-precision emulation: a kernel that narrows a value, widens it back and subtracts to
// get the rounding residual (`hi = x.to(bf16)`, `lo = (x - hi.to(fp32)).to(bf16)`), then
// multiplies both parts, rebuilds the wide product from several narrow ones. Its narrow
// operands do not lower the precision of the result (PREC001 leaves them alone).

#include "kbaudit/facts.h"

#include <functional>
#include <set>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// Embedded sources whose device code converts one value both ways on one line: a narrowing
/// and a widening conversion of the same type family (`half`/`half2`, `bf16`/`bf162`) on the
/// same line (`lo = __float2half(x - __half2float(hi))`).
std::set<int> splitPrecisionSources(const cxx::CxxFacts &cxx);

/// Whether each Triton kernel computes a rounding residual: a cast to a narrow dtype (`narrow`
/// says which dtypes are narrow) of a difference whose operands cast again (`.to(` or
/// `cast(` in it) or read a name bound to a cast back to a dtype that is not narrow.
/// Answered for every Triton kernel at once, indexed like TritonFacts::kernels: a rule asking of
/// many dots reads the file's casts and assignments once, not once per kernel.
std::vector<bool> tritonSplitPrecisionByKernel(const Facts &f, const std::function<bool(std::string_view)> &narrow);

} // namespace kbaudit::semantic
