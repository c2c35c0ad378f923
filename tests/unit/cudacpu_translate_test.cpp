// The CUDA-to-CPU translator (analyzers/cudacpu): launches, shared memory, the device mapping of
// host code, and every feature the CPU runner cannot run named with its line.

#include "kbaudit/cudacpu/translate.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using kbaudit::cudacpu::TranslateOptions;
using kbaudit::cudacpu::translate;
using kbaudit::cudacpu::Translation;

bool contains(const std::string &text, const std::string &needle) { return text.find(needle) != std::string::npos; }

/// The features named, as "feature@line" joined by "; ".
std::string named(const Translation &t) {
  std::string out;
  for (const auto &u : t.unavailable)
    out += (out.empty() ? "" : "; ") + u.feature + "@" + std::to_string(u.line);
  return out;
}

TEST(CudaTranslate, LaunchesBecomeRuntimeCallsWithTheirConfiguration) {
  const Translation t = translate(R"(__global__ void k(float *x, int n) {}
void host(float *x, int n, cudaStream_t s) {
  k<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  ns::scale<float, 4><<<dim3(2, 2), dim3(16, 16)>>>(x + 1, foo(n, 2));
  kernels[i]<<<1, 32>>>();
}
)");
  EXPECT_EQ(t.launches, 3u);
  EXPECT_TRUE(contains(t.text, "::cudacpu::launch(\"k\", ::cudacpu::LaunchConfig((n + 255) / 256, 256, 0, s), "
                               "[&](auto... cudacpu_arg) { k(cudacpu_arg...); }, x, n);"))
      << t.text;
  EXPECT_TRUE(contains(t.text, "::cudacpu::launch(\"ns::scale<float, 4>\", ::cudacpu::LaunchConfig(dim3(2, 2), "
                               "dim3(16, 16)), [&](auto... cudacpu_arg) { ns::scale<float, 4>(cudacpu_arg...); }, "
                               "x + 1, foo(n, 2));"))
      << t.text;
  EXPECT_TRUE(contains(t.text, "::cudacpu::launch(\"kernels[i]\", ::cudacpu::LaunchConfig(1, 32), [&](auto... "
                               "cudacpu_arg) { kernels[i](cudacpu_arg...); });"))
      << t.text;
  EXPECT_FALSE(contains(t.text, "<<<")) << t.text;
  EXPECT_TRUE(t.unavailable.empty()) << named(t);
}

TEST(CudaTranslate, ALaunchInAMacroBodyIsRewrittenWhereItIsWritten) {
  const Translation t = translate("#define LAUNCH(K, n) K<<<(n), 128>>>(x, n)\nvoid f(float *x, int n) { LAUNCH(k, n); }\n");
  EXPECT_EQ(t.launches, 1u);
  EXPECT_TRUE(contains(t.text, "#define LAUNCH(K, n) ::cudacpu::launch(\"K\", ::cudacpu::LaunchConfig((n), 128), "
                               "[&](auto... cudacpu_arg) { K(cudacpu_arg...); }, x, n)"))
      << t.text;
}

TEST(CudaTranslate, SharedMemoryIsPerBlockStorage) {
  const Translation t = translate(R"(__global__ void k() {
  __shared__ float tile[32][33];
  static __shared__ int flag;
  extern __shared__ __align__(16) unsigned char smem[];
  extern __shared__ volatile float partial[];
}
)");
  EXPECT_EQ(t.sharedDeclarations, 4u);
  EXPECT_TRUE(contains(t.text, "static float tile[32][33]; static ::cudacpu::SharedRegistration cudacpu_shared_")) << t.text;
  EXPECT_TRUE(contains(t.text, "_tile(&tile, sizeof(tile));")) << t.text;
  EXPECT_TRUE(contains(t.text, "static  int flag; static ::cudacpu::SharedRegistration")) << t.text;
  EXPECT_TRUE(contains(t.text, "unsigned char *const smem = reinterpret_cast<unsigned char *>(::cudacpu::dynamicShared());"))
      << t.text;
  EXPECT_TRUE(contains(t.text, "volatile float *const partial = reinterpret_cast<volatile float *>(::cudacpu::dynamicShared());"))
      << t.text;
}

TEST(CudaTranslate, HostCodeNamesTheCpuWhereItNamesTheGpu) {
  const Translation t = translate(R"(#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
torch::Tensor f(torch::Tensor x) {
  TORCH_CHECK(x.device().type() == torch::kCUDA, "cuda");
  auto y = torch::zeros({4}, x.options().device(at::DeviceType::CUDA));
  auto z = y.to("cuda:0").cuda();
  assert(x.dim() == 2);
  return z;
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#endif
#ifdef __CUDACC__
#endif
)");
  EXPECT_TRUE(contains(t.text, "TORCH_CHECK(x.is_cpu(), #x \" must be a CUDA tensor\")")) << t.text;
  EXPECT_TRUE(contains(t.text, "x.device().type() == torch::kCPU, \"cpu\")")) << t.text;
  EXPECT_TRUE(contains(t.text, "device(at::DeviceType::CPU)")) << t.text;
  EXPECT_TRUE(contains(t.text, "y.to(\"cpu\").cpu()")) << t.text;
  EXPECT_TRUE(contains(t.text, "CUDACPU_ASSERT(x.dim() == 2)")) << t.text;
  const Translation c = translate("void f(void **a) { cudaLaunchCooperativeKernel((void *)k, 4, 128, a, 0, s); }\n");
  EXPECT_TRUE(contains(c.text, "cudaLaunchCooperativeKernel(k, 4, 128, a, 0, s);")) << c.text;
  EXPECT_TRUE(contains(t.text, "#if defined(__CUDACPU_ARCH__) && __CUDACPU_ARCH__ >= 800")) << t.text;
  EXPECT_TRUE(contains(t.text, "#ifdef __CUDACPU_CUDACC__")) << t.text;
  // A C++ unit is compiled by g++ in the harness too: __CUDACC__ stays undefined there.
  TranslateOptions cpp;
  cpp.cuda = false;
  const Translation h = translate("#ifdef __CUDACC__\n#endif\nbool f(at::Tensor x) { return x.is_cuda(); }\n", cpp);
  EXPECT_TRUE(contains(h.text, "#ifdef __CUDACC__")) << h.text;
  EXPECT_TRUE(contains(h.text, "x.is_cpu()")) << h.text;
}

TEST(CudaTranslate, FastMathUsesTheIntrinsics) {
  TranslateOptions fast;
  fast.fastMath = true;
  const Translation t = translate("__device__ float f(float x) { return expf(x) + std::expf(x) + logf(x); }\n", fast);
  EXPECT_TRUE(contains(t.text, "return __expf(x) + std::expf(x) + __logf(x);")) << t.text;
  const Translation plain = translate("__device__ float f(float x) { return expf(x); }\n");
  EXPECT_TRUE(contains(plain.text, "return expf(x);")) << plain.text;
}

TEST(CudaTranslate, ThePreludeAndLineDirectiveComeFirst) {
  TranslateOptions o;
  o.fileName = "cuda.cu";
  const Translation t = translate("__global__ void k() {}\n", o);
  EXPECT_EQ(t.text.rfind("#include <cudacpu/prelude.h>\n#line 1 \"cuda.cu\"\n__global__ void k() {}", 0), 0u) << t.text;
}

TEST(CudaTranslate, EachUnsupportedFeatureIsNamedWithItsLine) {
  const Translation t = translate(R"(#include <mma.h>
#include "cutlass/gemm/device/gemm.h"
__global__ void k(float *a) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> fa;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(a[0]), "+f"(a[1]), "+f"(a[2]), "+f"(a[3]) : "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(y0), "r"(y1));
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" :: "r"(dst), "r"(cols));
  asm volatile("mbarrier.try_wait.parity.shared::cta.b64 %0, [%1], %2;" : "=r"(done) : "r"(bar), "r"(phase));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(s), "l"(m), "r"(x), "r"(y), "r"(b));
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0}, %1, %2;" : "+f"(a[0]) : "l"(da), "l"(db));
  cute::Tensor t = cute::make_tensor(a);
  typename cub::BlockReduce<float, 128>::TempStorage temp;
  asm volatile("bar.red.popc.u32 %0, 1, %1;" : "=r"(n) : "r"(p));
}
void host() {
  cublasHandle_t h; cublasGemmEx(h);
  cudnnHandle_t d;
  CUtensorMap map; cuTensorMapEncodeTiled(&map);
  cudaLaunchCooperativeKernel((void *)k, 1, 1, nullptr);
  thrust::sort(p, p + 4);
  cudaGraph_t g;
  tex2D<float>(tx, 0, 0);
  auto r = at::cuda::getCurrentCUDABlasHandle();
}
)");
  const std::string all = named(t);
  for (const char *expected :
       {"wmma (tensor-core fragments)@4", "CUTLASS/CuTe templates@2", "inline PTX mma.sync@5", "inline PTX tcgen05.alloc@6",
        "inline PTX mbarrier.try_wait@7", "inline PTX cp.async.bulk.tensor@8", "inline PTX wgmma.mma_async@9",
        "CUTLASS/CuTe templates@10", "CUB (cub::BlockReduce)@11", "inline PTX bar.red@12", "cuBLAS (cublasHandle_t)@15",
        "cuBLAS (cublasGemmEx)@15", "cuDNN (cudnnHandle_t)@16", "TMA descriptors (CUtensorMap)@17",
        "TMA descriptors (cuTensorMapEncodeTiled)@17", "Thrust (thrust::sort)@19",
        "CUDA graphs (cudaGraph_t)@20", "texture/surface objects (tex2D)@21", "cuBLAS (getCurrentCUDABlasHandle)@22"})
    EXPECT_TRUE(contains(all, expected)) << expected << " not in: " << all;
  EXPECT_EQ(kbaudit::cudacpu::describe({{"inline PTX mma.sync", 212}}), "unavailable: inline PTX mma.sync, line 212");
}

TEST(CudaTranslate, PtxTheRunnerEmulatesIsRewrittenNotReported) {
  const Translation t = translate(R"(__global__ void k(const __nv_bfloat16 *g, float *acc) {
  asm volatile("bar.sync 0;");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(smem), "l"(g));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group %0;\n" :: "n"(1));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n" : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(addr));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %0, 0; @p st.global.f32 [%1], %2; }" :: "r"(flag), "l"(out), "f"(v));
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("bar.sync 1, 64;");
  asm volatile("bar.arrive 2, 128;");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("" ::: "memory");
}
)");
  EXPECT_EQ(named(t), "") << t.text;
  EXPECT_FALSE(contains(t.text, "asm")) << t.text;
  for (const char *expected :
       {"do { __syncthreads(); } while (0);", "::cudacpu::ptx::copy(", "::cudacpu::ptx::ldmatrix(4, false, ",
        "::cudacpu::ptx::mma(16, ::cudacpu::ptx::Elem::BF16, false, ", "bool cudacpu_r_p = 0;",
        "if (cudacpu_r_p) { { char *cudacpu_a = ", "::cudacpu::ptx::ex2(", "::cudacpu::ptx::laneid()",
        "::cudacpu::detail::namedBarrier((std::uint32_t)(1), (std::uint32_t)(64), true);",
        "::cudacpu::detail::namedBarrier((std::uint32_t)(2), (std::uint32_t)(128), false);"})
    EXPECT_TRUE(contains(t.text, expected)) << expected << " not in:\n" << t.text;
}

TEST(CudaTranslate, WhatItCannotParseIsLeftAndNoted) {
  const Translation t = translate("void f() { x<<<1, 2>>> ; }\nconst char *s = \"unterminated\n");
  EXPECT_EQ(t.launches, 0u);
  EXPECT_FALSE(t.notes.empty());
}

} // namespace
