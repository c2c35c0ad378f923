#pragma once

// The one dtype vocabulary: torch, Triton, C++ and problem.yaml spellings of a number format,
// their canonical names, widths and rounding. The front ends, the problem context and the
// semantic layer all speak it, so it lives below them.

#include <string>
#include <string_view>

namespace kbaudit::dtype {

/// Canonical dtype of a torch/triton/problem.yaml spelling ("torch.float8_e4m3fn" ->
/// "fp8e4m3", "bfloat16" -> "bf16", "float32" -> "fp32", "fp8_e4m3" -> "fp8e4m3"); "" if unknown.
std::string canonicalDtype(std::string_view spelling);
/// Bits of a canonical dtype (fp32 -> 32, int4 -> 4); 0 when unknown.
unsigned dtypeBits(std::string_view canonical);
/// Relative rounding error of one value stored in a canonical floating dtype (half an ulp at
/// 1.0: 2^-24 fp32, 2^-11 fp16/tf32, 2^-8 bf16, 2^-4 fp8e4m3, 2^-3 fp8e5m2); integer, sub-byte
/// and unknown formats quantize and give 1.
double unitRoundoff(std::string_view canonical);

} // namespace kbaudit::dtype
