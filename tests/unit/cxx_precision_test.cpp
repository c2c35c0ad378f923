// Clang front end: numeric types, conversions and inline PTX.

#include "cxx_test_util.h"
#include "kbaudit/cxx/frontend.h"

#include <gtest/gtest.h>

using namespace kbaudit;
using namespace kbaudit::cxx;
using namespace kbaudit::cxx::test;

namespace {

const NumericUse *use(const CxxFacts &f, NumericType t, NumericUseKind k, const std::string &spelling) {
  return findFact(f.numericTypes, [&](const NumericUse &u) {
    return u.type == t && u.kind == k && u.spelling == spelling;
  });
}

TEST(CxxPrecision, HalfBfloat16Fp8TypesAndConversions) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
__global__ void downcast(const float* in, half* out, __nv_bfloat16* bout, __nv_fp8_e4m3* q, int n) {
  int i = threadIdx.x;
  out[i] = __float2half_rn(in[i]);
  bout[i] = __float2bfloat16(in[i]);
  __half2 pair = __floats2half2_rn(in[0], in[1]);
  pair = __hmul2(pair, pair);
  q[i] = __nv_fp8_e4m3(in[i]);
  __nv_fp8_storage_t s = __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E5M2);
  float back = __half2float(out[i]) + static_cast<float>(bout[i]);
  out[i] = static_cast<half>(back);
}
)cu", 40)});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const NumericUse *param = use(f, NumericType::Half, NumericUseKind::Declaration, "half");
  ASSERT_NE(param, nullptr);
  EXPECT_TRUE(param->inDevice);
  EXPECT_EQ(param->function, "downcast");
  EXPECT_EQ(param->lines, (LineRange{43, 43}));
  const NumericUse *f2h = use(f, NumericType::Half, NumericUseKind::Conversion, "__float2half_rn");
  ASSERT_NE(f2h, nullptr);
  EXPECT_EQ(f2h->direction, ConversionDirection::Narrowing);
  EXPECT_EQ(f2h->lines, (LineRange{45, 45}));
  EXPECT_EQ(use(f, NumericType::BFloat16, NumericUseKind::Conversion, "__float2bfloat16")->direction,
            ConversionDirection::Narrowing);
  EXPECT_NE(use(f, NumericType::Half2, NumericUseKind::Conversion, "__floats2half2_rn"), nullptr);
  EXPECT_NE(use(f, NumericType::Half2, NumericUseKind::Arithmetic, "__hmul2"), nullptr);
  const NumericUse *fp8 = use(f, NumericType::Fp8E4M3, NumericUseKind::Cast, "__nv_fp8_e4m3");
  ASSERT_NE(fp8, nullptr);
  EXPECT_EQ(fp8->direction, ConversionDirection::Narrowing);
  // The fp8 format of the cvt intrinsic is its argument.
  const NumericUse *cvt = use(f, NumericType::Fp8E5M2, NumericUseKind::Conversion, "__nv_cvt_float_to_fp8");
  ASSERT_NE(cvt, nullptr);
  EXPECT_EQ(cvt->direction, ConversionDirection::Narrowing);
  EXPECT_EQ(use(f, NumericType::Half, NumericUseKind::Conversion, "__half2float")->direction,
            ConversionDirection::Widening);
  EXPECT_EQ(use(f, NumericType::BFloat16, NumericUseKind::Cast, "__nv_bfloat16")->direction,
            ConversionDirection::Widening);
  EXPECT_NE(findFact(f.numericTypes, [](const NumericUse &u) {
              return u.type == NumericType::Half && u.kind == NumericUseKind::Cast &&
                     u.direction == ConversionDirection::Narrowing;
            }),
            nullptr);
}

TEST(CxxPrecision, WmmaFragmentsAndTf32) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <mma.h>
using namespace nvcuda;
__global__ void tc(const float* a, const half* h, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::load_matrix_sync(fa, a, 16);
  for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  wmma::load_matrix_sync(fb, h, 16);
  wmma::mma_sync(acc, fa, fa, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const NumericUse *tf32 = use(f, NumericType::Tf32, NumericUseKind::Precision, "nvcuda::wmma::precision::tf32");
  ASSERT_NE(tf32, nullptr);
  EXPECT_EQ(tf32->lines, (LineRange{4, 4}));
  EXPECT_NE(use(f, NumericType::Half, NumericUseKind::TemplateArgument, "half"), nullptr);
  const NumericUse *conv = use(f, NumericType::Tf32, NumericUseKind::Conversion, "__float_to_tf32");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->direction, ConversionDirection::Narrowing);
  EXPECT_EQ(call(f, "nvcuda::wmma::mma_sync")->category, CallCategory::Wmma);
}

TEST(CxxPrecision, TensorDtypesOnTheHost) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
torch::Tensor forward(torch::Tensor x) {
  auto h = x.to(torch::kFloat16);
  auto b = x.to(at::ScalarType::BFloat16);
  const at::Half* p = h.data_ptr<at::Half>();
  TORCH_CHECK(x.scalar_type() == at::kFloat8_e4m3fn, "fp8 input");
  return h;
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_NE(use(f, NumericType::Half, NumericUseKind::LibraryConstant, "torch::kFloat16"), nullptr);
  EXPECT_NE(use(f, NumericType::BFloat16, NumericUseKind::LibraryConstant, "c10::ScalarType::BFloat16"), nullptr);
  EXPECT_NE(use(f, NumericType::Half, NumericUseKind::TemplateArgument, "c10::Half"), nullptr);
  EXPECT_NE(use(f, NumericType::Half, NumericUseKind::Declaration, "c10::Half"), nullptr);
  EXPECT_NE(use(f, NumericType::Fp8E4M3, NumericUseKind::LibraryConstant, "c10::kFloat8_e4m3fn"), nullptr);
  EXPECT_FALSE(findFact(f.numericTypes, [](const NumericUse &u) { return u.inDevice; }));
}

TEST(CxxPrecision, InlinePtxSplitIntoInstructionsIncludingMacros) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <cuda_fp16.h>
#define MMA_BF16 "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 " \
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
#define CVT(dst, src) asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(dst) : "f"(src))
__device__ void mma(float* d, const unsigned* a, const unsigned* b) {
  asm volatile(MMA_BF16
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                 "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
}
__global__ void k(float* x, unsigned* r) {
  CVT(r[0], x[0]);
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %1, 0;\n"
      "  @p cvt.rn.f16.f32 %0, %2;\n"
      "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%3, %4, %5, %6}, [%7];\n"
      "}\n" : "=h"(*(unsigned short*)r) : "r"(r[1]), "f"(x[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "l"(x));
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0}, %1, %2, 1, 1, 1;" :: "f"(x[0]), "l"(x), "l"(x));
}
)cu", 100)});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  ASSERT_EQ(f.ptx.size(), 6u);
  const PtxInstruction &mma = f.ptx[0];
  EXPECT_EQ(mma.text, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  EXPECT_EQ(mma.opcode, "mma");
  EXPECT_EQ(mma.types, (std::vector<std::string>{"f32", "bf16", "bf16", "f32"}));
  EXPECT_EQ(mma.operands, "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}");
  EXPECT_EQ(mma.function, "mma");
  EXPECT_TRUE(mma.inDevice);
  EXPECT_TRUE(mma.isVolatile);
  EXPECT_EQ(mma.lines, (LineRange{105, 108}));
  EXPECT_EQ(f.ptx[1].text, "cvt.rna.tf32.f32"); // from a function-like macro
  EXPECT_EQ(f.ptx[1].lines, (LineRange{111, 111}));
  EXPECT_EQ(f.ptx[2].text, "setp.ne.b32");
  EXPECT_EQ(f.ptx[3].text, "cvt.rn.f16.f32");
  EXPECT_EQ(f.ptx[3].guard, "@p");
  EXPECT_EQ(f.ptx[3].types, (std::vector<std::string>{"f16", "f32"}));
  EXPECT_EQ(f.ptx[4].opcode, "ldmatrix");
  EXPECT_EQ(f.ptx[2].statement, f.ptx[4].statement);
  EXPECT_NE(f.ptx[1].statement, f.ptx[2].statement);
  EXPECT_EQ(f.ptx[5].opcode, "wgmma");
  EXPECT_EQ(f.ptx[5].types, (std::vector<std::string>{"f32", "tf32", "tf32"}));
}

} // namespace
