#pragma once

// The canonical dtype (problems' spelling: "fp16", "bf16", "fp8e4m3", "tf32", "int8") that a
// C++/CUDA spelling names: a numeric type the Clang front end classified, a cuBLAS/CUDA library
// constant, an ATen dtype constant, a half-precision arithmetic intrinsic. PREC001 compares
// them with the problem's contract precision.

#include "kbaudit/cxx/facts.h"

#include <string>
#include <string_view>

namespace kbaudit::semantic::cxxdtype {

/// The numeric type's canonical dtype (Half and Half2 are "fp16", a bare fp8 is "fp8e4m3").
std::string numericDtype(cxx::NumericType t);

/// A cuBLAS / CUDA library constant naming an operand or compute type somewhere in `argument`
/// (`CUBLAS_COMPUTE_32F_FAST_16F` -> "fp16", `CUDA_R_16BF` -> "bf16"); "" when none.
/// Why: the library call's argument is what selects its precision.
std::string libraryConstantDtype(std::string_view argument);

/// An ATen dtype constant somewhere in `argument` (`torch::kHalf`, `at::kBFloat16`,
/// `at::kFloat8_e4m3fn`); "" when none.
std::string atenDtype(std::string_view argument);

/// A device intrinsic that does arithmetic in a half type (`__hfma`, `h2exp`, ...), not one
/// that packs or moves.
bool isHalfArithmetic(std::string_view spelling);

/// The dtype a host-code ATen conversion makes: `a.half()`, `a.bfloat16()`,
/// `a.to(torch::kHalf)`, `at::_to_copy(a, ..., at::kBFloat16)`, `a.type(...)` (the first argument
/// naming an ATen dtype); "" for device code and any other call.
std::string hostCastDtype(const cxx::CxxCall &c);

} // namespace kbaudit::semantic::cxxdtype
