#include "kbaudit/semantic/cxx_dtype.h"

#include <array>
#include <utility>

namespace kbaudit::semantic::cxxdtype {

std::string numericDtype(cxx::NumericType t) {
  switch (t) {
  case cxx::NumericType::Half:
  case cxx::NumericType::Half2: return "fp16";
  case cxx::NumericType::BFloat16:
  case cxx::NumericType::BFloat162: return "bf16";
  case cxx::NumericType::Fp8E4M3:
  case cxx::NumericType::Fp8: return "fp8e4m3";
  case cxx::NumericType::Fp8E5M2: return "fp8e5m2";
  case cxx::NumericType::Fp6: return "fp6";
  case cxx::NumericType::Fp4: return "fp4e2m1";
  case cxx::NumericType::Tf32: return "tf32";
  case cxx::NumericType::Int8: return "int8";
  case cxx::NumericType::Int4: return "int4";
  }
  return {};
}

std::string libraryConstantDtype(std::string_view c) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kConstants = {{
      {"CUBLAS_COMPUTE_32F_FAST_16F", "fp16"}, {"CUBLAS_COMPUTE_32F_FAST_16BF", "bf16"},
      {"CUBLAS_COMPUTE_32F_FAST_TF32", "tf32"}, {"CUBLAS_COMPUTE_16F", "fp16"},
      {"CUBLAS_TF32_TENSOR_OP_MATH", "tf32"},  {"CUBLAS_COMPUTE_32I", "int8"},
      {"CUDA_R_16F", "fp16"},                  {"CUDA_R_16BF", "bf16"},
      {"CUDA_R_8F_E4M3", "fp8e4m3"},           {"CUDA_R_8F_E5M2", "fp8e5m2"},
      {"CUDA_R_8I", "int8"},                   {"CUDA_R_4F_E2M1", "fp4e2m1"},
  }};
  for (const auto &[name, canonical] : kConstants)
    if (c.find(name) != std::string_view::npos)
      return std::string(canonical);
  return {};
}

std::string atenDtype(std::string_view text) {
  if (text.find("kHalf") != std::string_view::npos || text.find("kFloat16") != std::string_view::npos)
    return "fp16";
  if (text.find("kBFloat16") != std::string_view::npos)
    return "bf16";
  if (text.find("Float8_e4m3") != std::string_view::npos)
    return "fp8e4m3";
  if (text.find("Float8_e5m2") != std::string_view::npos)
    return "fp8e5m2";
  return {};
}

bool isHalfArithmetic(std::string_view spelling) {
  for (std::string_view op : {"__hfma", "__hmul", "__hadd", "__hsub", "__hdiv", "__hneg", "__habs", "h2exp",
                              "hexp", "h2log", "hlog", "h2sqrt", "hsqrt", "h2rsqrt", "hrsqrt", "h2rcp", "hrcp",
                              "htanh", "h2tanh", "h2sin", "hsin", "h2cos", "hcos"})
    if (spelling.starts_with(op))
      return true;
  return false;
}

std::string hostCastDtype(const cxx::CxxCall &c) {
  if (c.inDevice)
    return {};
  if (c.callee == "at::Tensor::half")
    return "fp16";
  if (c.callee == "at::Tensor::bfloat16")
    return "bf16";
  if (c.callee == "at::Tensor::to" || c.callee == "at::_to_copy" || c.callee == "at::Tensor::type")
    for (const std::string &arg : c.arguments)
      if (std::string dtype = atenDtype(arg); !dtype.empty())
        return dtype;
  return {};
}

} // namespace kbaudit::semantic::cxxdtype
