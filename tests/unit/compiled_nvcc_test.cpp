// The compiled front end with the real nvcc: small CUDA fixtures compiled for sm_90a, and the
// instruction facts read from their PTX; the cache, compile errors, missing headers, time
// limits. Skipped, saying why, where there is no nvcc.

#include "compiled_support.h"
#include "test_files.h"

#include "kbaudit/compiled/compile.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace kbaudit;
using namespace kbaudit::compiled;

namespace {

#define SKIP_WITHOUT_NVCC()                                                                                           \
  do {                                                                                                                \
    if (!test::noNvcc().empty())                                                                                      \
      GTEST_SKIP() << test::noNvcc();                                                                                 \
  } while (0)

constexpr const char *kMmaF16 = R"cu(
__global__ void mma_f16(const unsigned *a, const unsigned *b, float *d) {
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  d[threadIdx.x] = c0 + c1 + c2 + c3;
}
)cu";

constexpr const char *kWmmaTf32 = R"cu(#include <mma.h>
using namespace nvcuda;
__global__ void wmma_tf32(const float *a, const float *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
)cu";

constexpr const char *kMmaFp8 = R"cu(
__global__ void mma_fp8(const unsigned *a, const unsigned *b, float *d) {
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  d[threadIdx.x] = c0 + c1 + c2 + c3;
}
)cu";

constexpr const char *kFp32Loop = R"cu(
namespace blas {
__global__ void sgemm(const float *A, const float *B, float *C, int N, int K) {
  __shared__ float tile[256];
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = A[row * K];
  __syncthreads();
  float acc = tile[threadIdx.y];
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
}
)cu";

constexpr const char *kCopy = R"cu(
extern "C" __global__ void copy_kernel(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}
)cu";

CompileOptions options(const fs::path &cache = {}) {
  CompileOptions o;
  o.arch = "sm_90a";
  o.cacheDir = cache;
  o.timeoutSeconds = 120;
  return o;
}

/// The only kernel of a one-unit compile that must succeed.
CompiledKernel onlyKernel(const char *text) {
  const CompiledFacts f = compileEmbedded(test::plainCuda(text), options());
  EXPECT_EQ(f.units.size(), 1u);
  if (f.units.size() != 1)
    return {};
  const CompiledUnit &u = f.units[0];
  EXPECT_EQ(u.status, UnitStatus::Compiled) << u.why;
  EXPECT_EQ(u.kernels.size(), 1u);
  return u.kernels.empty() ? CompiledKernel{} : u.kernels[0];
}

} // namespace

TEST(CompiledNvcc, InlineFp16MmaSync) {
  SKIP_WITHOUT_NVCC();
  const CompiledKernel k = onlyKernel(kMmaF16);
  EXPECT_EQ(k.name, "mma_f16");
  ASSERT_EQ(k.code.mma.size(), 1u);
  EXPECT_EQ(k.code.mma[0].instruction, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  EXPECT_EQ(k.code.mma[0].a, "fp16");
  EXPECT_EQ(k.code.mma[0].accumulator, "fp32");
  EXPECT_TRUE(k.resources.known);
  EXPECT_GT(k.resources.registers, 0u);
}

TEST(CompiledNvcc, WmmaTf32Fragments) {
  SKIP_WITHOUT_NVCC();
  const CompiledKernel k = onlyKernel(kWmmaTf32);
  ASSERT_EQ(k.code.mma.size(), 1u);
  EXPECT_EQ(k.code.mma[0].family, "wmma");
  EXPECT_EQ(k.code.mma[0].a, "tf32");
  EXPECT_EQ(k.code.mma[0].b, "tf32");
  EXPECT_EQ(k.code.mma[0].accumulator, "fp32");
  bool rounding = false; // __float_to_tf32
  for (const ConversionUse &c : k.code.conversions)
    rounding = rounding || (c.to == "tf32" && c.from == "fp32");
  EXPECT_TRUE(rounding);
}

TEST(CompiledNvcc, InlineFp8MmaSync) {
  SKIP_WITHOUT_NVCC();
  const CompiledKernel k = onlyKernel(kMmaFp8);
  ASSERT_EQ(k.code.mma.size(), 1u);
  EXPECT_EQ(k.code.mma[0].a, "fp8e4m3");
  EXPECT_EQ(k.code.mma[0].b, "fp8e4m3");
}

TEST(CompiledNvcc, PlainFp32LoopHasFp32FmaAndNoMma) {
  SKIP_WITHOUT_NVCC();
  const CompiledKernel k = onlyKernel(kFp32Loop);
  EXPECT_EQ(k.name, "blas::sgemm");
  EXPECT_TRUE(k.code.mma.empty());
  EXPECT_GT(k.code.fma.count("f32") ? k.code.fma.at("f32") : 0u, 0u);
  EXPECT_EQ(k.code.fma.count("f16x2"), 0u);
  EXPECT_TRUE(k.code.conversions.empty());
  EXPECT_EQ(k.code.staticSharedBytes, 1024u);
  EXPECT_EQ(k.resources.sharedBytes, 1024u);
  EXPECT_GT(k.code.globalLoads, 0u);
}

TEST(CompiledNvcc, CopyKernelComputesNothing) {
  SKIP_WITHOUT_NVCC();
  const CompiledKernel k = onlyKernel(kCopy);
  EXPECT_EQ(k.name, "copy_kernel");
  EXPECT_FALSE(k.code.computes());
  EXPECT_GT(k.code.globalLoads, 0u);
  EXPECT_GT(k.code.globalStores, 0u);
}

TEST(CompiledNvcc, SecondCompileOfTheSameTextIsReadFromTheCache) {
  SKIP_WITHOUT_NVCC();
  test::TempDir cache;
  const CompiledFacts cold = compileEmbedded(test::plainCuda(kCopy), options(cache.path()));
  ASSERT_EQ(cold.units.size(), 1u);
  EXPECT_FALSE(cold.units[0].cached);
  const CompiledFacts warm = compileEmbedded(test::plainCuda(kCopy), options(cache.path()));
  ASSERT_EQ(warm.units.size(), 1u);
  EXPECT_TRUE(warm.units[0].cached);
  ASSERT_EQ(warm.units[0].kernels.size(), 1u);
  EXPECT_EQ(warm.units[0].kernels[0].name, "copy_kernel");
  EXPECT_TRUE(warm.units[0].kernels[0].resources.known);
  // Another architecture is another entry.
  CompileOptions other = options(cache.path());
  other.arch = "sm_86";
  EXPECT_FALSE(compileEmbedded(test::plainCuda(kCopy), other).units[0].cached);
  // A damaged entry is a miss, never a crash or a wrong answer.
  for (const auto &e : fs::recursive_directory_iterator(cache.path()))
    if (e.is_regular_file())
      test::writeFile(e.path(), "kbaudit-compile-cache 1\nstatus compiled\nsection ptx 99999\nshort");
  const CompiledFacts damaged = compileEmbedded(test::plainCuda(kCopy), options(cache.path()));
  EXPECT_FALSE(damaged.units[0].cached);
  EXPECT_EQ(damaged.units[0].status, UnitStatus::Compiled);
  EXPECT_EQ(damaged.units[0].kernels.size(), 1u);
}

TEST(CompiledNvcc, ACompileErrorIsADiagnosticOnTheSourceLine) {
  SKIP_WITHOUT_NVCC();
  const CompiledFacts f =
      compileEmbedded(test::plainCuda("__global__ void k(float *x) {\n  x[0] = not_declared_anywhere;\n}\n"), options());
  ASSERT_EQ(f.units.size(), 1u);
  EXPECT_EQ(f.units[0].status, UnitStatus::CompileError);
  ASSERT_FALSE(f.units[0].errors.empty());
  EXPECT_EQ(f.units[0].errors[0].line, 2u);
  EXPECT_NE(f.units[0].errors[0].message.find("not_declared_anywhere"), std::string::npos);
  EXPECT_NE(f.units[0].why.find("not_declared_anywhere"), std::string::npos);
  EXPECT_TRUE(f.units[0].kernels.empty());
}

TEST(CompiledNvcc, AMissingHeaderIsReportedAsNotCompiledWithItsName) {
  SKIP_WITHOUT_NVCC();
  const CompiledFacts f =
      compileEmbedded(test::plainCuda("#include <cutlass/not_here.h>\n__global__ void k(float *x) { x[0] = 1; }\n"),
                      options());
  ASSERT_EQ(f.units.size(), 1u);
  EXPECT_EQ(f.units[0].status, UnitStatus::MissingHeader);
  EXPECT_NE(f.units[0].why.find("cutlass/not_here.h"), std::string::npos) << f.units[0].why;
}

TEST(CompiledNvcc, ACompilePastItsTimeLimitIsStoppedAndNotCached) {
  SKIP_WITHOUT_NVCC();
  test::TempDir cache;
  CompileOptions o = options(cache.path());
  o.timeoutSeconds = 0.01; // nvcc cannot start and finish in that
  const CompiledFacts f = compileEmbedded(test::plainCuda(kCopy), o);
  ASSERT_EQ(f.units.size(), 1u);
  EXPECT_EQ(f.units[0].status, UnitStatus::TimedOut);
  EXPECT_NE(f.units[0].why.find("limit"), std::string::npos);
  EXPECT_FALSE(compileEmbedded(test::plainCuda(kCopy), options(cache.path())).units[0].cached);
}

TEST(CompiledFrontEnd, WithoutNvccEveryUnitSaysWhy) {
  CompileOptions o = options();
  o.nvcc = "/nonexistent/bin/nvcc";
  const CompiledFacts f = compileEmbedded(test::plainCuda(kCopy), o);
  EXPECT_TRUE(f.attempted);
  ASSERT_EQ(f.units.size(), 1u);
  EXPECT_EQ(f.units[0].status, UnitStatus::NoCompiler);
  EXPECT_FALSE(f.units[0].why.empty());
  EXPECT_TRUE(f.units[0].kernels.empty());
}

TEST(CompiledFrontEnd, HostSourcesAreNotDeviceCode) {
  embed::EmbedFacts e = test::plainCuda("int twice(int x) { return 2 * x; }\n");
  e.sources[0].origin = embed::Origin::LoadInlineCpp;
  e.sources[0].language = embed::Language::Cpp;
  const CompiledFacts f = compileEmbedded(e, options());
  ASSERT_EQ(f.units.size(), 1u);
  EXPECT_EQ(f.units[0].status, UnitStatus::NotDevice);
}
