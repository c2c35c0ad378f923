// Clang front end: the per-function device-work summary (DeviceWork) and the kernel
// inventory's classification of CUDA kernels from it.

#include "cxx_test_util.h"
#include "kbaudit/cxx/frontend.h"
#include "kbaudit/kernels/inventory.h"

#include <gtest/gtest.h>

using namespace kbaudit;
using namespace kbaudit::cxx;
using namespace kbaudit::cxx::test;
using kernels::KernelWork;

namespace {

const char *kKernels = R"cu(#include <torch/extension.h>
#include <cuda_fp16.h>
__global__ void relu(const float* __restrict__ x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = x[i] > 0.f ? x[i] : 0.f;
}
__global__ void copy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
__global__ void add_inplace(float* y, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) { y[i] += b[i]; i += blockDim.x * gridDim.x; }
}
__global__ void naive_gemm(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
template <int TILE>
__global__ void tiled_gemm(const float* A, const float* B, float* C, int N) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int ty = threadIdx.y, tx = threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < N / TILE; ++t) {
    As[ty][tx] = A[ty * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + tx];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float a = As[ty][k];
      acc = fmaf(a, Bs[k][tx], acc);
    }
    __syncthreads();
  }
  C[ty * N + tx] = acc;
}
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
__global__ void row_sum(const float* x, float* out, int n) {
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += x[blockIdx.x * n + i];
  s = warp_sum(s);
  if (threadIdx.x == 0) atomicAdd(out + blockIdx.x, s);
}
__global__ void block_sum(const float* x, float* out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  sdata[tid] = tid < n ? x[tid] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
__global__ void sum_squares(const float* x, float* out, int n) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  out[0] = s;
}
__device__ float gelu(float v) { return 0.5f * v * (1.f + tanhf(0.79788456f * v)); }
__global__ void gelu_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gelu(x[i]);
}
__global__ void transpose(const float* x, float* y, int n) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = x[blockIdx.x * 32 + threadIdx.y * n + threadIdx.x];
  __syncthreads();
  y[blockIdx.y * 32 + threadIdx.y * n + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
)cu";

TEST(CxxDeviceWork, SummarisesEachDeviceBody) {
  const CxxFacts f = analyzeSources({cuda(kKernels)});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const auto work = [&](const char *name) {
    const CxxFunction *fn = function(f, name);
    EXPECT_NE(fn, nullptr) << name;
    return fn ? fn->work : DeviceWork{};
  };
  const DeviceWork relu = work("relu");
  EXPECT_TRUE(relu.analyzed);
  EXPECT_FALSE(relu.loopAccumulate); // the grid-stride `i += ...` is an index, not an accumulator
  EXPECT_TRUE(relu.compute);
  EXPECT_FALSE(work("copy").compute);
  EXPECT_FALSE(work("add_inplace").loopAccumulate); // y[i] moves with the loop's i
  const DeviceWork gemm = work("naive_gemm");
  EXPECT_TRUE(gemm.loopAccumulate);
  EXPECT_TRUE(gemm.loopProduct);
  const DeviceWork tiled = work("tiled_gemm");
  EXPECT_TRUE(tiled.loopProduct); // fmaf through a local read from shared memory
  EXPECT_TRUE(tiled.sharedMemory);
  EXPECT_TRUE(tiled.barrier);
  EXPECT_TRUE(work("warp_sum").shuffle);
  EXPECT_TRUE(work("warp_sum").loopAccumulate);
  const DeviceWork rowSum = work("row_sum");
  EXPECT_TRUE(rowSum.atomics);
  EXPECT_TRUE(rowSum.loopAccumulate);
  EXPECT_FALSE(rowSum.loopProduct);
  const DeviceWork blockSum = work("block_sum");
  EXPECT_TRUE(blockSum.loopAccumulate); // sdata[tid] += sdata[tid + s]: tid does not move with s
  EXPECT_TRUE(blockSum.sharedMemory);
  EXPECT_FALSE(work("sum_squares").loopProduct); // x[i] * x[i]: same index, a reduction
  EXPECT_TRUE(work("sum_squares").loopAccumulate);
  EXPECT_TRUE(work("gelu").compute);
  EXPECT_FALSE(work("gelu_kernel").compute); // its compute is in the callee
}

TEST(CxxDeviceWork, HostFunctionsAreNotSummarised) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
float host_sum(const float* x, int n) { float s = 0; for (int i = 0; i < n; ++i) s += x[i]; return s; }
)cu")});
  ASSERT_NE(function(f, "host_sum"), nullptr);
  EXPECT_FALSE(function(f, "host_sum")->work.analyzed);
}

embed::EmbedFacts embedded(std::string text) {
  embed::EmbedFacts e;
  e.sources.push_back(cuda(std::move(text)));
  e.modules.push_back(embed::ExtensionModule{"ext", "_ext", {}, "", {}});
  return e;
}

KernelWork workOf(const kernels::KernelInventory &inv, const std::string &name) {
  for (const kernels::Kernel &k : inv.kernels)
    if (k.kind == kernels::KernelKind::CudaGlobal && k.name == name)
      return k.work;
  ADD_FAILURE() << "no kernel " << name;
  return KernelWork::Unknown;
}

TEST(CudaKernelWork, ClassifiesKernelsWithTheirDeviceCallees) {
  const embed::EmbedFacts e = embedded(kKernels);
  const auto inv = kernels::buildInventory({}, e, analyzeEmbedded(e), {});
  EXPECT_EQ(workOf(inv, "relu"), KernelWork::Elementwise);
  EXPECT_EQ(workOf(inv, "copy"), KernelWork::Copy);
  EXPECT_EQ(workOf(inv, "add_inplace"), KernelWork::Elementwise);
  EXPECT_EQ(workOf(inv, "naive_gemm"), KernelWork::Matmul); // FMA loop over k: GEMM work
  EXPECT_EQ(workOf(inv, "tiled_gemm"), KernelWork::Matmul);
  EXPECT_EQ(workOf(inv, "row_sum"), KernelWork::Reduction);
  EXPECT_EQ(workOf(inv, "block_sum"), KernelWork::Reduction);
  EXPECT_EQ(workOf(inv, "sum_squares"), KernelWork::Reduction);
  EXPECT_EQ(workOf(inv, "gelu_kernel"), KernelWork::Elementwise); // compute through gelu()
  EXPECT_EQ(workOf(inv, "transpose"), KernelWork::Unknown); // shared + barrier, no accumulation seen
}

TEST(CudaKernelWork, UnknownWhenTheBodyDoesNotParseOrWorkIsHidden) {
  const embed::EmbedFacts e = embedded(R"cu(#include <torch/extension.h>
#include "missing_helpers.cuh"
__device__ float declared_only(float v);
__global__ void broken(const float* x, float* y, int n) {
  int i = threadIdx.x;
  y[i] = undefined_helper(x[i]) + ;
}
__global__ void hidden(const float* x, float* y) {
  y[threadIdx.x] = declared_only(x[threadIdx.x]);
}
__global__ void fine(const float* x, float* y) { y[threadIdx.x] = 2.f * x[threadIdx.x]; }
)cu");
  const auto inv = kernels::buildInventory({}, e, analyzeEmbedded(e), {});
  EXPECT_EQ(workOf(inv, "broken"), KernelWork::Unknown);
  EXPECT_EQ(workOf(inv, "hidden"), KernelWork::Unknown);
  EXPECT_EQ(workOf(inv, "fine"), KernelWork::Elementwise);
}

} // namespace
