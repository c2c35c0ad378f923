// The heavy compute a C++ library call runs (library_compute.h).

#include "kbaudit/semantic/library_compute.h"

#include <initializer_list>
#include <map>

namespace kbaudit::semantic {
namespace {

using kernels::HeavyOpKind;

std::string_view afterLastScope(std::string_view name) {
  const auto colon = name.rfind("::");
  return colon == std::string_view::npos ? name : name.substr(colon + 2);
}

/// ATen ops that run the heavy compute in cuBLAS/cuDNN/flash kernels shipped with PyTorch.
std::optional<HeavyOpKind> atenCompute(std::string_view callee) {
  static const std::map<std::string_view, HeavyOpKind> ops = {
      {"matmul", HeavyOpKind::Matmul},      {"mm", HeavyOpKind::Matmul},          {"bmm", HeavyOpKind::Matmul},
      {"addmm", HeavyOpKind::Matmul},       {"addmm_", HeavyOpKind::Matmul},      {"baddbmm", HeavyOpKind::Matmul},
      {"addbmm", HeavyOpKind::Matmul},      {"linear", HeavyOpKind::Matmul},      {"einsum", HeavyOpKind::Matmul},
      {"tensordot", HeavyOpKind::Matmul},   {"mv", HeavyOpKind::Matmul},          {"addmv", HeavyOpKind::Matmul},
      {"bilinear", HeavyOpKind::Matmul},    {"_scaled_mm", HeavyOpKind::Matmul},  {"_int_mm", HeavyOpKind::Matmul},
      {"_weight_int4pack_mm", HeavyOpKind::Matmul}, {"_weight_int8pack_mm", HeavyOpKind::Matmul},
      {"mm_out", HeavyOpKind::Matmul},      {"matmul_out", HeavyOpKind::Matmul},  {"bmm_out", HeavyOpKind::Matmul},
      {"addmm_out", HeavyOpKind::Matmul},
      {"conv1d", HeavyOpKind::Conv},        {"conv2d", HeavyOpKind::Conv},        {"conv3d", HeavyOpKind::Conv},
      {"conv_transpose1d", HeavyOpKind::Conv}, {"conv_transpose2d", HeavyOpKind::Conv},
      {"conv_transpose3d", HeavyOpKind::Conv}, {"convolution", HeavyOpKind::Conv}, {"_convolution", HeavyOpKind::Conv},
      {"cudnn_convolution", HeavyOpKind::Conv},
      {"scaled_dot_product_attention", HeavyOpKind::Attention},
      {"_scaled_dot_product_flash_attention", HeavyOpKind::Attention},
      {"_scaled_dot_product_efficient_attention", HeavyOpKind::Attention},
      {"_scaled_dot_product_cudnn_attention", HeavyOpKind::Attention},
      {"_flash_attention_forward", HeavyOpKind::Attention},
  };
  const auto it = ops.find(afterLastScope(callee));
  return it == ops.end() ? std::nullopt : std::optional<HeavyOpKind>(it->second);
}

bool containsAny(std::string_view s, std::initializer_list<std::string_view> parts) {
  for (std::string_view p : parts)
    if (s.find(p) != std::string_view::npos)
      return true;
  return false;
}

} // namespace

std::optional<kernels::HeavyOpKind> libraryCompute(const cxx::CxxCall &c) {
  const std::string_view name = afterLastScope(c.callee);
  switch (c.category) {
  case cxx::CallCategory::Aten:
    return atenCompute(c.callee);
  case cxx::CallCategory::Cublas:
    // cublasSgemm, cublasGemmEx, cublasGemmStridedBatchedEx, cublasHgemmBatched, cublasSgemv...
    if (containsAny(name, {"gemm", "Gemm", "gemv", "Gemv", "Matmul"}))
      return HeavyOpKind::Matmul;
    return std::nullopt;
  case cxx::CallCategory::CublasLt:
    if (name == "cublasLtMatmul")
      return HeavyOpKind::Matmul;
    return std::nullopt;
  case cxx::CallCategory::Cudnn:
    if (name == "cudnnConvolutionForward" || name == "cudnnConvolutionBiasActivationForward")
      return HeavyOpKind::Conv;
    // The graph API runs whatever the plan says: attention, conv or matmul.
    if (name == "cudnnBackendExecute")
      return HeavyOpKind::Matmul;
    return std::nullopt;
  default:
    return std::nullopt; // CUTLASS/CuTe/CUB run templates the solution instantiates.
  }
}

const char *libraryName(cxx::CallCategory c) {
  switch (c) {
  case cxx::CallCategory::Cublas: return "cuBLAS";
  case cxx::CallCategory::CublasLt: return "cuBLASLt";
  case cxx::CallCategory::Cudnn: return "cuDNN";
  default: return "ATen";
  }
}

} // namespace kbaudit::semantic
