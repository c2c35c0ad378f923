// Which heavy compute a C++ library call runs (kbaudit/semantic/library_compute.h): WRAP002
// reports the compute call, never the handle or descriptor setup around it.

#include "kbaudit/semantic/library_compute.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <string>

namespace kbaudit {
namespace {

using kernels::HeavyOpKind;

std::optional<HeavyOpKind> computeOf(cxx::CallCategory category, const std::string &callee) {
  cxx::CxxCall c;
  c.category = category;
  c.callee = callee;
  return semantic::libraryCompute(c);
}

TEST(SemanticLibraryCompute, AtenOpsByLastScope) {
  EXPECT_EQ(computeOf(cxx::CallCategory::Aten, "at::matmul"), HeavyOpKind::Matmul);
  EXPECT_EQ(computeOf(cxx::CallCategory::Aten, "at::Tensor::addmm_"), HeavyOpKind::Matmul) << "a Tensor method";
  EXPECT_EQ(computeOf(cxx::CallCategory::Aten, "at::_scaled_mm"), HeavyOpKind::Matmul);
  EXPECT_EQ(computeOf(cxx::CallCategory::Aten, "torch::conv2d"), HeavyOpKind::Conv);
  EXPECT_EQ(computeOf(cxx::CallCategory::Aten, "at::scaled_dot_product_attention"), HeavyOpKind::Attention);
  EXPECT_EQ(computeOf(cxx::CallCategory::Aten, "at::empty"), std::nullopt) << "an allocation";
  EXPECT_EQ(computeOf(cxx::CallCategory::Aten, "at::Tensor::to"), std::nullopt) << "a cast";
}

TEST(SemanticLibraryCompute, VendorLibrariesComputeNotSetup) {
  EXPECT_EQ(computeOf(cxx::CallCategory::Cublas, "cublasSgemm"), HeavyOpKind::Matmul);
  EXPECT_EQ(computeOf(cxx::CallCategory::Cublas, "cublasGemmStridedBatchedEx"), HeavyOpKind::Matmul);
  EXPECT_EQ(computeOf(cxx::CallCategory::Cublas, "cublasSgemv"), HeavyOpKind::Matmul);
  EXPECT_EQ(computeOf(cxx::CallCategory::Cublas, "cublasCreate"), std::nullopt);
  EXPECT_EQ(computeOf(cxx::CallCategory::Cublas, "cublasSetMathMode"), std::nullopt);
  EXPECT_EQ(computeOf(cxx::CallCategory::CublasLt, "cublasLtMatmul"), HeavyOpKind::Matmul);
  EXPECT_EQ(computeOf(cxx::CallCategory::CublasLt, "cublasLtMatmulDescCreate"), std::nullopt) << "a descriptor";
  EXPECT_EQ(computeOf(cxx::CallCategory::Cudnn, "cudnnConvolutionForward"), HeavyOpKind::Conv);
  EXPECT_EQ(computeOf(cxx::CallCategory::Cudnn, "cudnnBackendExecute"), HeavyOpKind::Matmul) << "a graph plan";
  EXPECT_EQ(computeOf(cxx::CallCategory::Cudnn, "cudnnCreateTensorDescriptor"), std::nullopt);
  EXPECT_EQ(computeOf(cxx::CallCategory::Cutlass, "cutlass::gemm::device::Gemm::operator()"), std::nullopt)
      << "a template the solution instantiates is its own kernel";
}

TEST(SemanticLibraryCompute, LibraryNames) {
  EXPECT_STREQ(semantic::libraryName(cxx::CallCategory::Cublas), "cuBLAS");
  EXPECT_STREQ(semantic::libraryName(cxx::CallCategory::CublasLt), "cuBLASLt");
  EXPECT_STREQ(semantic::libraryName(cxx::CallCategory::Cudnn), "cuDNN");
  EXPECT_STREQ(semantic::libraryName(cxx::CallCategory::Aten), "ATen");
}

} // namespace
} // namespace kbaudit
