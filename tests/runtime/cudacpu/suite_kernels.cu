// The CPU runner's own test kernels (tests/runtime/cudacpu/suite.py builds them with
// load_inline through kbaudit_probe.cuda_cpu and compares every result with torch on the CPU).
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace cg = cooperative_groups;

#define CHECK_INPUT(x) TORCH_CHECK(x.is_cuda() && x.is_contiguous(), #x " must be a contiguous CUDA tensor")

// ---------------------------------------------------------------- elementwise (float4 loads)
__global__ void gelu_tanh_kernel(const float *__restrict__ x, float *__restrict__ y, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    const float4 v = *reinterpret_cast<const float4 *>(x + i);
    float in[4] = {v.x, v.y, v.z, v.w}, out[4];
    for (int k = 0; k < 4; ++k)
      out[k] = 0.5f * in[k] * (1.f + tanhf(0.7978845608f * (in[k] + 0.044715f * in[k] * in[k] * in[k])));
    *reinterpret_cast<float4 *>(y + i) = make_float4(out[0], out[1], out[2], out[3]);
  } else {
    for (int k = i; k < n; ++k)
      y[k] = 0.5f * x[k] * (1.f + tanhf(0.7978845608f * (x[k] + 0.044715f * x[k] * x[k] * x[k])));
  }
}

torch::Tensor gelu_tanh(torch::Tensor x) {
  CHECK_INPUT(x);
  const c10::cuda::CUDAGuard guard(x.device());
  auto y = torch::empty_like(x);
  const int n = x.numel();
  const int threads = 128, blocks = (n / 4 + threads) / threads;
  gelu_tanh_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

// ---------------------------------------------------------------- reduction: shared memory + shuffles
__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

template <int THREADS> __global__ void softmax_kernel(const float *x, float *y, int cols) {
  __shared__ float partial[THREADS / 32];
  __shared__ float total;
  const float *row = x + (size_t)blockIdx.x * cols;
  float *out = y + (size_t)blockIdx.x * cols;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += THREADS)
    m = fmaxf(m, row[c]);
  m = warp_max(m);
  if (lane == 0)
    partial[warp] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    float v = partial[0];
    for (int w = 1; w < THREADS / 32; ++w)
      v = fmaxf(v, partial[w]);
    total = v;
  }
  __syncthreads();
  m = total;
  __syncthreads();
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += THREADS)
    s += expf(row[c] - m);
  s = warp_sum(s);
  if (lane == 0)
    partial[warp] = s;
  __syncthreads();
  if (warp == 0) {
    float v = lane < THREADS / 32 ? partial[lane] : 0.f;
    v = warp_sum(v);
    if (lane == 0)
      total = v;
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += THREADS)
    out[c] = expf(row[c] - m) / total;
}

torch::Tensor softmax(torch::Tensor x) {
  CHECK_INPUT(x);
  auto y = torch::empty_like(x);
  softmax_kernel<128><<<x.size(0), 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
  return y;
}

// ---------------------------------------------------------------- dynamic shared memory, block sum
__global__ void block_sum_kernel(const float *x, float *out, int n) {
  extern __shared__ float sdata[];
  const int t = threadIdx.x;
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
    v += x[i];
  sdata[t] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = sdata[0];
}

// The classic last-warp reduction without _sync intrinsics: volatile shared memory, lockstep.
__device__ void warp_reduce_legacy(volatile float *s, int t) {
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}
__global__ void legacy_sum_kernel(const float *x, float *out, int n) {
  __shared__ float s[128];
  const int t = threadIdx.x;
  float v = 0.f;
  for (int i = t; i < n; i += 128)
    v += x[i];
  s[t] = v;
  __syncthreads();
  if (t < 64)
    s[t] += s[t + 64];
  __syncthreads();
  if (t < 32)
    warp_reduce_legacy(s, t);
  if (t == 0)
    out[0] = s[0];
}

torch::Tensor legacy_sum(torch::Tensor x) {
  auto out = torch::zeros({1}, x.options());
  legacy_sum_kernel<<<1, 128>>>(x.data_ptr<float>(), out.data_ptr<float>(), x.numel());
  return out;
}

torch::Tensor block_sums(torch::Tensor x, int64_t blocks) {
  auto out = torch::zeros({blocks}, x.options());
  block_sum_kernel<<<blocks, 256, 256 * sizeof(float)>>>(x.data_ptr<float>(), out.data_ptr<float>(), x.numel());
  return out;
}

// ---------------------------------------------------------------- tiled matmul with __syncthreads
constexpr int TILE = 16;
__global__ void matmul_kernel(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = col < N && k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
  const int M = a.size(0), K = a.size(1), N = b.size(1);
  auto c = torch::empty({M, N}, a.options().device(torch::kCUDA));
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), M, N, K);
  return c;
}

// ---------------------------------------------------------------- atomics
__global__ void histogram_kernel(const int64_t *x, int *bins, int n, int nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[x[i] % nbins], 1);
}
__global__ void atomic_stats_kernel(const float *x, float *sum, int *maxbits, unsigned *count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(sum, x[i]);
  // A float max through the integer CAS loop (x >= 0 here, so the bits order like the values).
  int old = *maxbits, assumed;
  do {
    assumed = old;
    old = atomicCAS(maxbits, assumed, max(assumed, __float_as_int(x[i])));
  } while (assumed != old);
  atomicInc(count, 0xffffffffu);
}

std::vector<torch::Tensor> atomics(torch::Tensor values, torch::Tensor x, int64_t nbins) {
  auto bins = torch::zeros({nbins}, values.options().dtype(torch::kInt32));
  histogram_kernel<<<4, 64>>>(values.data_ptr<int64_t>(), bins.data_ptr<int>(), values.numel(), nbins);
  auto sum = torch::zeros({1}, x.options());
  auto maxbits = torch::zeros({1}, x.options().dtype(torch::kInt32));
  auto count = torch::zeros({1}, x.options().dtype(torch::kInt32));
  atomic_stats_kernel<<<(x.numel() + 127) / 128, 128>>>(x.data_ptr<float>(), sum.data_ptr<float>(),
                                                        maxbits.data_ptr<int>(), (unsigned *)count.data_ptr<int>(), x.numel());
  return {bins, sum, maxbits.view(torch::kFloat32), count};
}

// ---------------------------------------------------------------- fp16 / bf16 / fp8
__global__ void narrow_kernel(const float *x, const float *y, __half *h, __nv_bfloat16 *b, __half *hsum, __half *hfma,
                              __nv_bfloat16 *bmul, unsigned char *e4m3, unsigned char *e5m2, float *back, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  h[i] = __float2half(x[i]);
  b[i] = __float2bfloat16(x[i]);
  hsum[i] = __hadd(__float2half(x[i]), __float2half(y[i]));
  hfma[i] = __hfma(__float2half(x[i]), __float2half(y[i]), __float2half(0.25f));
  bmul[i] = __hmul(__float2bfloat16(x[i]), __float2bfloat16(y[i]));
  const __nv_fp8_e4m3 f8(x[i]);
  e4m3[i] = f8.__x;
  e5m2[i] = __nv_fp8_e5m2(x[i]).__x;
  const __half2 pair = __floats2half2_rn(x[i], y[i]);
  back[i] = __low2float(pair) + static_cast<float>(f8);
}

std::vector<torch::Tensor> narrow(torch::Tensor x, torch::Tensor y) {
  const int n = x.numel();
  auto h = torch::empty({n}, x.options().dtype(torch::kFloat16));
  auto b = torch::empty({n}, x.options().dtype(torch::kBFloat16));
  auto hsum = torch::empty_like(h), hfma = torch::empty_like(h);
  auto bmul = torch::empty_like(b);
  auto e4m3 = torch::empty({n}, x.options().dtype(torch::kUInt8)), e5m2 = torch::empty_like(e4m3);
  auto back = torch::empty_like(x);
  narrow_kernel<<<(n + 63) / 64, 64>>>(x.data_ptr<float>(), y.data_ptr<float>(), (__half *)h.data_ptr<at::Half>(),
                                       (__nv_bfloat16 *)b.data_ptr<at::BFloat16>(), (__half *)hsum.data_ptr<at::Half>(),
                                       (__half *)hfma.data_ptr<at::Half>(), (__nv_bfloat16 *)bmul.data_ptr<at::BFloat16>(),
                                       e4m3.data_ptr<uint8_t>(), e5m2.data_ptr<uint8_t>(), back.data_ptr<float>(), n);
  return {h, b, hsum, hfma, bmul, e4m3, e5m2, back};
}

// ---------------------------------------------------------------- warp-synchronous intrinsics
// Per thread: ballot of (lane % 3 == 0), any/all, a broadcast from lane 5, match_any on lane / 8,
// __activemask inside a branch taken by the even lanes, and a cooperative-groups tile reduce.
__global__ void warp_kernel(int *out) {
  const int lane = threadIdx.x % 32;
  int *o = out + threadIdx.x * 7;
  o[0] = (int)__ballot_sync(0xffffffff, lane % 3 == 0);
  o[1] = __any_sync(0xffffffff, lane == 31) + 2 * __all_sync(0xffffffff, lane < 31);
  o[2] = __shfl_sync(0xffffffff, lane * 10, 5);
  o[3] = (int)__match_any_sync(0xffffffff, lane / 8);
  o[4] = -1;
  if (lane % 2 == 0)
    o[4] = (int)__activemask();
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  o[5] = cg::reduce(tile, lane, cg::plus<int>());
  o[6] = __reduce_max_sync(0xffffffff, (unsigned)(lane * 7 % 32));
}

torch::Tensor warp_ops(int64_t threads) {
  auto out = torch::zeros({threads, 7}, torch::TensorOptions().dtype(torch::kInt32).device(torch::kCUDA));
  warp_kernel<<<1, threads>>>(out.data_ptr<int>());
  return out;
}

// ---------------------------------------------------------------- inline PTX: cp.async, ldmatrix, mma.sync
// One warp per 16x8 tile of C = A B (bf16 in, f32 out; B given transposed, n x k, as the mma's
// "col" operand): tiles copied to shared memory with cp.async, fragments loaded with ldmatrix.
__global__ void mma_gemm_kernel(const __nv_bfloat16 *A, const __nv_bfloat16 *Bt, float *C, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 As[16][16];
  __shared__ __align__(16) __nv_bfloat16 Bs[8][16];
  const int lane = threadIdx.x, tm = blockIdx.y * 16, tn = blockIdx.x * 8;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    {
      const int r = lane / 2, c = (lane % 2) * 8;
      const unsigned dst = (unsigned)__cvta_generic_to_shared(&As[r][c]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(A + (size_t)(tm + r) * K + k0 + c));
      if (lane < 16) {
        const unsigned bdst = (unsigned)__cvta_generic_to_shared(&Bs[r][c]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(bdst), "l"(Bt + (size_t)(tn + r) * K + k0 + c));
      }
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncwarp();
    unsigned a[4], b[2];
    const unsigned aaddr = (unsigned)__cvta_generic_to_shared(&As[lane % 16][(lane / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(aaddr));
    const unsigned baddr = (unsigned)__cvta_generic_to_shared(&Bs[lane % 8][((lane / 8) % 2) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(b[0]), "=r"(b[1]) : "r"(baddr));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    __syncwarp();
  }
  const int g = lane >> 2, t = lane & 3;
  C[(tm + g) * N + tn + 2 * t] = acc[0];
  C[(tm + g) * N + tn + 2 * t + 1] = acc[1];
  C[(tm + g + 8) * N + tn + 2 * t] = acc[2];
  C[(tm + g + 8) * N + tn + 2 * t + 1] = acc[3];
}

// Scalar PTX: ex2.approx, a packed bf16x2 conversion, prmt, lop3, a predicated store.
__global__ void ptx_scalar_kernel(const float *x, float *e, unsigned *packed, unsigned *bits, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x[i]));
  e[i] = y;
  unsigned p;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(x[i]), "f"(-x[i]));
  packed[i] = p;
  unsigned r, l;
  asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(r) : "r"((unsigned)i), "r"(0u));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(l) : "r"(r), "r"(0xff00ff00u), "r"(0x0f0f0f0fu));
  asm volatile("{ .reg .pred q; setp.lt.s32 q, %0, 10; @q st.global.u32 [%1], %2; }" ::"r"(i), "l"(bits + i), "r"(l));
}

// Warp specialisation with a named barrier: warp 1 produces, warp 0 (which runs first here)
// waits at bar.sync 1, 64 for warp 1's bar.arrive before it reads.
__global__ void named_barrier_kernel(float *out) {
  __shared__ float buf[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 1) {
    buf[lane] = lane * 2.f;
    asm volatile("bar.arrive 1, 64;");
  } else {
    asm volatile("bar.sync 1, 64;");
    out[lane] = buf[31 - lane];
  }
}

std::vector<torch::Tensor> ptx_ops(torch::Tensor a, torch::Tensor bt, torch::Tensor x) {
  const int M = a.size(0), K = a.size(1), N = bt.size(0);
  auto c = torch::empty({M, N}, a.options().dtype(torch::kFloat32));
  mma_gemm_kernel<<<dim3(N / 8, M / 16), 32>>>((const __nv_bfloat16 *)a.data_ptr<at::BFloat16>(),
                                               (const __nv_bfloat16 *)bt.data_ptr<at::BFloat16>(), c.data_ptr<float>(), N, K);
  const int n = x.numel();
  auto e = torch::empty_like(x);
  auto packed = torch::empty({n}, x.options().dtype(torch::kInt32));
  auto bits = torch::zeros({n}, x.options().dtype(torch::kInt32));
  ptx_scalar_kernel<<<(n + 31) / 32, 32>>>(x.data_ptr<float>(), e.data_ptr<float>(), (unsigned *)packed.data_ptr<int>(),
                                            (unsigned *)bits.data_ptr<int>(), n);
  auto named = torch::zeros({32}, x.options());
  named_barrier_kernel<<<1, 64>>>(named.data_ptr<float>());
  return {c, e, packed, bits, named};
}

// ---------------------------------------------------------------- a cooperative launch
// Every block reduces into its own __shared__ array, meets the grid at this_grid().sync() (the
// other blocks' threads run in between, with their own shared memory), finishes, and block 0
// adds the partial sums after a second grid sync.
__global__ void coop_sum_kernel(const float *x, float *partial, float *out, int n) {
  __shared__ float s[128];
  auto grid = cg::this_grid();
  const int t = threadIdx.x;
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
    v += x[i];
  s[t] = v;
  __syncthreads();
  grid.sync();
  for (int k = 64; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0 && t == 0) {
    float a = 0.f;
    for (int b = 0; b < (int)gridDim.x; ++b)
      a += partial[b];
    out[0] = a;
  }
}

torch::Tensor coop_sum(torch::Tensor x) {
  const int blocks = 8;
  auto partial = torch::zeros({blocks}, x.options());
  auto out = torch::zeros({1}, x.options());
  const float *xp = x.data_ptr<float>();
  float *pp = partial.data_ptr<float>(), *op = out.data_ptr<float>();
  int n = x.numel();
  void *args[] = {&xp, &pp, &op, &n};
  C10_CUDA_CHECK(cudaLaunchCooperativeKernel((void *)coop_sum_kernel, blocks, 128, args, 0, at::cuda::getCurrentCUDAStream()));
  return out;
}

// ---------------------------------------------------------------- faults the runner reports
__global__ void hang_kernel(int *flag) {
  while (*(volatile int *)flag == 0) {
  }
}
__global__ void read_past_end_kernel(const float *x, float *y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i + 1];
}
__global__ void write_past_end_kernel(float *y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    y[i] = 1.f;
}
__global__ void divergent_barrier_kernel(float *y) {
  if (threadIdx.x < 16)
    y[threadIdx.x] = __shfl_sync(0xffffffff, 1.f, 0);
  else
    __syncthreads();
}

int64_t fault(int64_t which) {
  auto opts = torch::TensorOptions().device(torch::kCUDA);
  auto flag = torch::zeros({1}, opts.dtype(torch::kInt32));
  auto x = torch::ones({100}, opts), y = torch::zeros({100}, opts);
  if (which == 0)
    hang_kernel<<<1, 32>>>(flag.data_ptr<int>());
  else if (which == 1)
    read_past_end_kernel<<<1, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), 100);
  else if (which == 2)
    write_past_end_kernel<<<1, 128>>>(y.data_ptr<float>(), 100);
  else if (which == 3)
    divergent_barrier_kernel<<<1, 32>>>(y.data_ptr<float>());
  else if (which == 4)
    hang_kernel<<<1, 2048>>>(flag.data_ptr<int>()); // more threads than a block may have
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return 0;
}
