#pragma once

// The stub headers parsed instead of torch, CUDA, cuBLAS, cuDNN, CUTLASS/CuTe and the C++
// standard library: small declarations of the names facts need, permissive enough
// (variadic templates, catch-all argument types) that ordinary solution code type-checks.

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <optional>

namespace kbaudit::cxx::stubs {

struct Header {
  llvm::StringRef name; ///< include name, relative to the stub directory ("cuda_fp16.h")
  llvm::StringRef text;
};

/// The text served for `#include <name>` / `"name"`, nullopt when kbaudit has no stub.
/// Whole families map to one stub (every "torch/...", "ATen/...", "c10/..." header is the
/// torch stub; every "cutlass/..." header the CUTLASS stub).
std::optional<llvm::StringRef> lookup(llvm::StringRef name);

/// Force-included first when parsing CUDA: what nvcc makes implicit (__global__,
/// threadIdx, dim3, the runtime API and device intrinsics).
inline constexpr llvm::StringRef kCudaPrelude = "kbaudit/prelude_cuda.h";

/// Every stub, generated at build time from analyzers/cxx/stubs/ (stub_table.cpp).
llvm::ArrayRef<Header> allHeaders();

} // namespace kbaudit::cxx::stubs
