#pragma once

// Canonical dtype names shared by Triton and torch spellings (see facts.h).

#include <string>
#include <string_view>

namespace kbaudit::triton::detail {

/// "triton.language.bfloat16" / "torch.bfloat16" -> "bf16"; "" for anything else (a bare
/// `float` is Python's type, not a dtype).
std::string canonicalDtype(std::string_view resolved);

/// torch.Tensor conversion methods that name their dtype: "half" -> "fp16",
/// "bfloat16" -> "bf16", "float" -> "fp32", "double" -> "fp64", ... ; "" otherwise.
std::string hostCastMethodDtype(std::string_view method);

/// tl.dot_scaled format strings: "e4m3" -> "fp8e4m3", "e2m1" -> "fp4e2m1", "bf16" -> "bf16".
std::string scaledFormatDtype(std::string_view format);

} // namespace kbaudit::triton::detail
