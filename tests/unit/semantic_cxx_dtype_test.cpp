// The canonical dtypes C++/CUDA spellings name (kbaudit/semantic/cxx_dtype.h), which PREC001
// compares with the problem's contract precision.

#include "kbaudit/semantic/cxx_dtype.h"

#include <gtest/gtest.h>

namespace {

using namespace kbaudit;
using namespace kbaudit::semantic::cxxdtype;

TEST(SemanticCxxDtype, NumericTypes) {
  EXPECT_EQ(numericDtype(cxx::NumericType::Half2), "fp16");
  EXPECT_EQ(numericDtype(cxx::NumericType::BFloat162), "bf16");
  EXPECT_EQ(numericDtype(cxx::NumericType::Fp8), "fp8e4m3");
  EXPECT_EQ(numericDtype(cxx::NumericType::Fp8E5M2), "fp8e5m2");
  EXPECT_EQ(numericDtype(cxx::NumericType::Tf32), "tf32");
}

TEST(SemanticCxxDtype, LibraryAndAtenConstants) {
  EXPECT_EQ(libraryConstantDtype("CUBLAS_COMPUTE_32F_FAST_16BF"), "bf16");
  EXPECT_EQ(libraryConstantDtype("cudaDataType_t t = CUDA_R_16F"), "fp16");
  EXPECT_EQ(libraryConstantDtype("CUBLAS_COMPUTE_32F"), ""); // plain fp32 compute
  EXPECT_EQ(atenDtype("at::kBFloat16"), "bf16");
  EXPECT_EQ(atenDtype("torch::kHalf"), "fp16");
  EXPECT_EQ(atenDtype("at::kFloat8_e5m2"), "fp8e5m2");
  EXPECT_EQ(atenDtype("at::kFloat"), "");
}

TEST(SemanticCxxDtype, HalfArithmeticNotPacking) {
  EXPECT_TRUE(isHalfArithmetic("__hfma2"));
  EXPECT_TRUE(isHalfArithmetic("h2exp"));
  EXPECT_FALSE(isHalfArithmetic("__halves2half2"));
  EXPECT_FALSE(isHalfArithmetic("__float2half"));
}

} // namespace

cxx::CxxCall hostCall(const std::string &callee, std::vector<std::string> args, bool inDevice = false) {
  cxx::CxxCall c;
  c.callee = callee;
  c.arguments = std::move(args);
  c.inDevice = inDevice;
  return c;
}

TEST(SemanticCxxDtype, HostCastDtype) {
  EXPECT_EQ(hostCastDtype(hostCall("at::Tensor::half", {})), "fp16");
  EXPECT_EQ(hostCastDtype(hostCall("at::Tensor::bfloat16", {})), "bf16");
  EXPECT_EQ(hostCastDtype(hostCall("at::Tensor::to", {"x.device()", "torch::kHalf"})), "fp16")
      << "the first argument naming a dtype";
  EXPECT_EQ(hostCastDtype(hostCall("at::_to_copy", {"x", "at::kBFloat16"})), "bf16");
  EXPECT_EQ(hostCastDtype(hostCall("at::Tensor::to", {"torch::kFloat"})), "") << "fp32 names no narrow dtype here";
  EXPECT_EQ(hostCastDtype(hostCall("at::Tensor::half", {}, true)), "") << "device code is not host code";
  EXPECT_EQ(hostCastDtype(hostCall("at::empty", {"torch::kHalf"})), "") << "an allocation, not a conversion";
}
