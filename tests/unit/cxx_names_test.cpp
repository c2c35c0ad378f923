// The Clang front end's pure-text parts: callee classification and PTX splitting.

#include "kbaudit/cxx/facts.h"

#include "../../analyzers/cxx/src/names.h"
#include "../../analyzers/cxx/src/ptx.h"

#include <gtest/gtest.h>

using namespace kbaudit::cxx;

namespace {

TEST(CxxNames, ClassifiesCallees) {
  EXPECT_EQ(names::classifyCall("at::matmul"), CallCategory::Aten);
  EXPECT_EQ(names::classifyCall("torch::mm"), CallCategory::Aten);
  EXPECT_EQ(names::classifyCall("at::Tensor::matmul"), CallCategory::Aten);
  EXPECT_EQ(names::classifyCall("at::Tensor::data_ptr"), CallCategory::AtenMeta);
  EXPECT_EQ(names::classifyCall("at::empty_like"), CallCategory::AtenMeta);
  EXPECT_EQ(names::classifyCall("at::Tensor::operator="), CallCategory::AtenMeta);
  EXPECT_EQ(names::classifyCall("at::operator*"), CallCategory::Aten);
  EXPECT_EQ(names::classifyCall("cublasGemmEx"), CallCategory::Cublas);
  EXPECT_EQ(names::classifyCall("cublasLtMatmul"), CallCategory::CublasLt);
  EXPECT_EQ(names::classifyCall("at::cuda::getCurrentCUDABlasLtHandle"), CallCategory::CublasLt);
  EXPECT_EQ(names::classifyCall("cudnnConvolutionForward"), CallCategory::Cudnn);
  EXPECT_EQ(names::classifyCall("cutlass::gemm::device::Gemm::run"), CallCategory::Cutlass);
  EXPECT_EQ(names::classifyCall("cute::gemm"), CallCategory::Cute);
  EXPECT_EQ(names::classifyCall("cub::DeviceRadixSort::SortPairs"), CallCategory::Cub);
  EXPECT_EQ(names::classifyCall("cudaStreamCreate"), CallCategory::Stream);
  EXPECT_EQ(names::classifyCall("c10::cuda::getStreamFromPool"), CallCategory::Stream);
  EXPECT_EQ(names::classifyCall("cudaEventRecord"), CallCategory::Event);
  EXPECT_EQ(names::classifyCall("cudaGraphLaunch"), CallCategory::Graph);
  EXPECT_EQ(names::classifyCall("at::cuda::CUDAGraph::replay"), CallCategory::Graph);
  EXPECT_EQ(names::classifyCall("cudaStreamSetAttribute", {"s", "cudaStreamAttributeAccessPolicyWindow", "&a"}),
            CallCategory::L2);
  EXPECT_EQ(names::classifyCall("cudaStreamSetAttribute", {"s", "cudaStreamAttributePriority", "&a"}),
            CallCategory::Stream);
  EXPECT_EQ(names::classifyCall("cudaDeviceSetLimit", {"cudaLimitPersistingL2CacheSize", "n"}), CallCategory::L2);
  EXPECT_EQ(names::classifyCall("cudaDeviceSetLimit", {"cudaLimitStackSize", "n"}), CallCategory::Runtime);
  EXPECT_EQ(names::classifyCall("cudaCtxResetPersistingL2Cache"), CallCategory::L2);
  EXPECT_EQ(names::classifyCall("std::thread"), CallCategory::Thread);
  EXPECT_EQ(names::classifyCall("cudaMemcpyAsync"), CallCategory::Memory);
  EXPECT_EQ(names::classifyCall("cudaDeviceSynchronize"), CallCategory::Sync);
  EXPECT_EQ(names::classifyCall("cudaLaunchKernel"), CallCategory::Launch);
  EXPECT_EQ(names::classifyCall("cuModuleGetFunction"), CallCategory::Runtime);
  EXPECT_EQ(names::classifyCall("at::kbaudit_dispatch::AT_DISPATCH_FLOATING_TYPES"), CallCategory::Dispatch);
  EXPECT_EQ(names::classifyCall("my_helper"), std::nullopt);
  EXPECT_EQ(names::classifyCall("std::max"), std::nullopt);
  EXPECT_EQ(names::classifyCall("c10::detail::torchCheck"), std::nullopt);
  EXPECT_EQ(names::classifyCall("custom"), std::nullopt);
}

TEST(CxxNames, NumericNames) {
  EXPECT_EQ(names::numericTypeOfName("__half"), NumericType::Half);
  EXPECT_EQ(names::numericTypeOfName("c10::BFloat16"), NumericType::BFloat16);
  EXPECT_EQ(names::numericTypeOfName("cutlass::float_e4m3_t"), NumericType::Fp8E4M3);
  EXPECT_EQ(names::numericTypeOfName("nvcuda::wmma::precision::tf32"), NumericType::Tf32);
  EXPECT_TRUE(names::isPrecisionTag("nvcuda::wmma::precision::tf32"));
  EXPECT_EQ(names::numericTypeOfName("float"), std::nullopt);
  EXPECT_EQ(names::numericTypeOfName("my::half"), std::nullopt);
  EXPECT_EQ(names::numericConstant("c10::kHalf"), NumericType::Half);
  EXPECT_EQ(names::numericConstant("c10::ScalarType::BFloat16"), NumericType::BFloat16);
  EXPECT_EQ(names::numericConstant("c10::Half"), std::nullopt);
  EXPECT_EQ(names::numericConstant("CUBLAS_COMPUTE_32F_FAST_TF32"), NumericType::Tf32);
  EXPECT_EQ(names::numericConstant("CUDA_R_8F_E4M3"), NumericType::Fp8E4M3);
  EXPECT_EQ(names::numericConstant("CUDA_R_32F"), std::nullopt);
  const auto cvt = names::namedConversion("__nv_cvt_float_to_fp8", {"x", "__NV_SATFINITE", "__NV_E4M3"});
  ASSERT_TRUE(cvt);
  EXPECT_EQ(cvt->type, NumericType::Fp8E4M3);
  EXPECT_EQ(cvt->direction, ConversionDirection::Narrowing);
  EXPECT_EQ(names::namedConversion("__nv_cvt_fp8_to_halfraw", {"x", "__NV_E5M2"})->direction,
            ConversionDirection::Widening);
}

TEST(CxxNames, StreamText) {
  EXPECT_EQ(names::streamKindOfText(""), StreamKind::Default);
  EXPECT_EQ(names::streamKindOfText("0"), StreamKind::Default);
  EXPECT_EQ(names::streamKindOfText("at::cuda::getCurrentCUDAStream()"), StreamKind::Current);
  EXPECT_EQ(names::streamKindOfText("c10::cuda::getCurrentCUDAStream().stream()"), StreamKind::Current);
  EXPECT_EQ(names::streamKindOfText("cudaStreamPerThread"), StreamKind::PerThread);
  EXPECT_EQ(names::streamKindOfText("at::cuda::getStreamFromPool()"), StreamKind::Other);
  EXPECT_EQ(names::streamKindOfText("s"), std::nullopt);
}

TEST(CxxPtxSplit, InstructionsTypesGuardsAndDirectives) {
  const auto ins = ptx::split(
      "{\n"
      "  .reg .f32 t;  // scratch\n"
      "  L_loop: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1},\n"
      "      {%2,%3}, {%4}, {%5,%6};\n"
      "  @!p bra L_loop;\n"
      "  /* convert */ cvt.rn.satfinite.e4m3x2.f32 %7, %8, %9;\n"
      "  mov.u32 %0, %%laneid;\n"
      "}\n");
  ASSERT_EQ(ins.size(), 4u);
  EXPECT_EQ(ins[0].text, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  EXPECT_EQ(ins[0].opcode, "mma");
  EXPECT_EQ(ins[0].types, (std::vector<std::string>{"f32", "f16", "f16", "f32"}));
  EXPECT_EQ(ins[0].operands, "{%0,%1}, {%2,%3}, {%4}, {%5,%6}");
  EXPECT_EQ(ins[1].opcode, "bra");
  EXPECT_EQ(ins[1].guard, "@!p");
  EXPECT_EQ(ins[2].text, "cvt.rn.satfinite.e4m3x2.f32");
  EXPECT_EQ(ins[2].types, (std::vector<std::string>{"e4m3x2", "f32"}));
  EXPECT_EQ(ins[2].modifiers, (std::vector<std::string>{"rn", "satfinite", "e4m3x2", "f32"}));
  EXPECT_EQ(ins[3].operands, "%0, %laneid");
  EXPECT_TRUE(ptx::split("").empty());
  EXPECT_TRUE(ptx::split(";;;").empty());
}

} // namespace
