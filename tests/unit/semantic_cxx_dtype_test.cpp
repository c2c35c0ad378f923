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
