// Clang front end: kernels, launches, exports and the kernel work summary.

#include "cxx_test_util.h"
#include "kbaudit/cxx/frontend.h"

#include <gtest/gtest.h>

using namespace kbaudit;
using namespace kbaudit::cxx;
using namespace kbaudit::cxx::test;

namespace {

TEST(CxxKernels, GlobalAndDeviceFunctionsInNamespacesAndTemplates) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
namespace ops {
namespace detail {
__device__ __forceinline__ float relu(float x) { return x > 0.f ? x : 0.f; }
}
template <int BM, typename T>
__global__ void __launch_bounds__(256) tiled(const T* __restrict__ in, T* out, int n) {
  int i = blockIdx.x * BM + threadIdx.x;
  if (i < n) out[i] = detail::relu(in[i]);
}
__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
}
extern "C" __global__ void plain(float* x) { x[threadIdx.x] = 0.f; }
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const CxxFunction *tiled = function(f, "ops::tiled");
  ASSERT_NE(tiled, nullptr);
  EXPECT_TRUE(tiled->isKernel());
  EXPECT_TRUE(tiled->templated);
  EXPECT_EQ(tiled->templateParams, "int BM, typename T");
  EXPECT_EQ(tiled->lines, (LineRange{6, 10}));
  ASSERT_NE(function(f, "ops::detail::relu"), nullptr);
  EXPECT_EQ(function(f, "ops::detail::relu")->kind, FunctionKind::Device);
  EXPECT_EQ(function(f, "ops::ceil_div")->kind, FunctionKind::HostDevice);
  ASSERT_NE(function(f, "plain"), nullptr);
  EXPECT_TRUE(function(f, "plain")->externC);
  // Device helpers called from kernels are call-graph edges.
  EXPECT_NE(findFact(f.callGraph, [](const CallEdge &e) {
              return e.caller == "ops::tiled" && e.callee == "ops::detail::relu";
            }),
            nullptr);
}

TEST(CxxKernels, TripleChevronLaunchesWithConfigurationAndStreams) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
template <int BM> __global__ void k(float* x) {}
namespace ns { __global__ void inner(float* x) {} }
void run(torch::Tensor t) {
  float* p = t.data_ptr<float>();
  dim3 grid(4), block(128);
  k<64><<<grid, block>>>(p);
  cudaStream_t s = at::cuda::getCurrentCUDAStream();
  k<32><<<grid, block, 1024, s>>>(p);
  ns::inner<<<1, 32, 0, at::cuda::getStreamFromPool()>>>(p);
  cudaStream_t side;
  cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  ns::inner<<<1, 32, 0, side>>>(p);
}
)cu", 20)});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  ASSERT_EQ(f.launches.size(), 4u);
  const KernelLaunch &a = f.launches[0];
  EXPECT_EQ(a.kernel, "k");
  EXPECT_EQ(a.spelled, "k<64>");
  EXPECT_EQ(a.grid, "grid");
  EXPECT_EQ(a.block, "block");
  EXPECT_EQ(a.sharedMem, "");
  EXPECT_EQ(a.streamKind, StreamKind::Default);
  EXPECT_EQ(a.function, "run");
  EXPECT_TRUE(a.resolved);
  EXPECT_EQ(a.lines, (LineRange{27, 27})); // embedded line 8, source starts at line 20
  EXPECT_EQ(f.launches[1].sharedMem, "1024");
  EXPECT_EQ(f.launches[1].stream, "s");
  EXPECT_EQ(f.launches[1].streamKind, StreamKind::Current); // through the local's initialiser
  EXPECT_EQ(f.launches[2].kernel, "ns::inner");
  EXPECT_EQ(f.launches[2].streamKind, StreamKind::Other); // a pool stream
  EXPECT_EQ(f.launches[3].streamKind, StreamKind::Other);
  const CxxCall *create = call(f, "cudaStreamCreateWithFlags");
  ASSERT_NE(create, nullptr);
  EXPECT_EQ(create->category, CallCategory::Stream);
  ASSERT_NE(call(f, "c10::cuda::getStreamFromPool"), nullptr);
  EXPECT_EQ(call(f, "c10::cuda::getStreamFromPool")->category, CallCategory::Stream);
  EXPECT_NE(findFact(f.references, [](const ApiReference &r) { return r.name == "cudaStreamNonBlocking"; }),
            nullptr);
}

TEST(CxxKernels, LaunchApisNameTheirKernel) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <cuda_runtime.h>
#include <cuda.h>
__global__ void coop(float* x) {}
__global__ void normal(float* x) {}
void launch(float* x, cudaStream_t stream, CUfunction fn) {
  void* args[] = {&x};
  cudaLaunchKernel((const void*)normal, dim3(1), dim3(32), args, 0, stream);
  cudaLaunchCooperativeKernel((void*)&coop, dim3(8), dim3(256), args, 0, 0);
  cudaLaunchConfig_t cfg = {};
  cudaLaunchKernelEx(&cfg, normal, x);
  cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, args, nullptr);
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  ASSERT_EQ(f.launches.size(), 4u);
  EXPECT_EQ(f.launches[0].api, LaunchApi::CudaLaunchKernel);
  EXPECT_EQ(f.launches[0].kernel, "normal");
  EXPECT_EQ(f.launches[0].grid, "dim3(1)");
  EXPECT_EQ(f.launches[0].stream, "stream");
  EXPECT_EQ(f.launches[1].api, LaunchApi::CudaLaunchCooperative);
  EXPECT_EQ(f.launches[1].kernel, "coop");
  EXPECT_EQ(f.launches[1].streamKind, StreamKind::Default);
  EXPECT_EQ(f.launches[2].api, LaunchApi::CudaLaunchKernelEx);
  EXPECT_EQ(f.launches[2].kernel, "normal");
  EXPECT_EQ(f.launches[3].api, LaunchApi::CuLaunchKernel);
  EXPECT_FALSE(f.launches[3].resolved);
  EXPECT_EQ(f.launches[3].block, "32, 1, 1");
  EXPECT_EQ(call(f, "cudaLaunchKernel")->category, CallCategory::Launch);
}

TEST(CxxKernels, PybindExportLaunchesKernelThroughHelpersAndDispatchLambdas) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
template <typename scalar_t>
__global__ void add_kernel(const scalar_t* a, scalar_t* out, int n) {}
static void launch_add(torch::Tensor a, torch::Tensor out) {
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "add", ([&] {
    add_kernel<scalar_t><<<1, 256>>>(a.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), a.numel());
  }));
}
torch::Tensor forward(torch::Tensor a) {
  auto out = torch::empty_like(a);
  launch_add(a, out);
  return out;
}
torch::Tensor lib_only(torch::Tensor a, torch::Tensor b) {
  return torch::matmul(a, b);
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &forward, "forward");
  m.def("lib_only", &lib_only);
  m.def("inline_lambda", [](torch::Tensor x) { return at::bmm(x, x); });
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const ExportedFunction *fwd = exported(f, "forward");
  ASSERT_NE(fwd, nullptr);
  EXPECT_EQ(fwd->via, ExportVia::Pybind);
  EXPECT_EQ(fwd->target, "forward");
  EXPECT_TRUE(fwd->defined);
  EXPECT_EQ(fwd->lines, (LineRange{18, 18}));
  ASSERT_EQ(fwd->kernels, std::vector<std::string>{"add_kernel"});
  EXPECT_TRUE(fwd->launchesKernel());
  EXPECT_FALSE(fwd->callsLibrary()); // empty_like allocates: AtenMeta, not compute
  EXPECT_TRUE(fwd->undefinedCallees.empty());

  const ExportedFunction *lib = exported(f, "lib_only");
  ASSERT_NE(lib, nullptr);
  EXPECT_FALSE(lib->launchesKernel());
  ASSERT_EQ(lib->libraryCalls.size(), 1u);
  EXPECT_EQ(f.calls[lib->libraryCalls[0]].callee, "at::matmul");
  EXPECT_EQ(f.calls[lib->libraryCalls[0]].spelled, "torch::matmul");
  EXPECT_EQ(f.calls[lib->libraryCalls[0]].category, CallCategory::Aten);

  const ExportedFunction *lambda = exported(f, "inline_lambda");
  ASSERT_NE(lambda, nullptr);
  EXPECT_EQ(lambda->target, "PYBIND11_MODULE::lambda#1");
  ASSERT_EQ(lambda->libraryCalls.size(), 1u);
  EXPECT_EQ(f.calls[lambda->libraryCalls[0]].callee, "at::bmm");

  const CxxCall *dispatch = call(f, "AT_DISPATCH_FLOATING_TYPES");
  ASSERT_NE(dispatch, nullptr);
  EXPECT_EQ(dispatch->category, CallCategory::Dispatch);
  EXPECT_EQ(dispatch->function, "launch_add");
}

TEST(CxxKernels, TorchLibraryExports) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/library.h>
__global__ void k(float* x) {}
at::Tensor gemm_cuda(const at::Tensor& a) { k<<<1, 1>>>(a.data_ptr<float>()); return a; }
at::Tensor gemm_meta(const at::Tensor& a) { return at::empty_like(a); }
TORCH_LIBRARY(myops, m) {
  m.def("gemm(Tensor a) -> Tensor");
  m.def("scale(Tensor a) -> Tensor", &gemm_meta);
}
TORCH_LIBRARY_IMPL(myops, CUDA, m) {
  m.impl("gemm", TORCH_FN(gemm_cuda));
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  ASSERT_EQ(f.exports.size(), 2u);
  const ExportedFunction *scale = exported(f, "scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->via, ExportVia::TorchLibraryDef);
  EXPECT_EQ(scale->target, "gemm_meta");
  const ExportedFunction *gemm = exported(f, "gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->via, ExportVia::TorchLibraryImpl);
  EXPECT_EQ(gemm->target, "gemm_cuda");
  EXPECT_EQ(gemm->kernels, std::vector<std::string>{"k"});
}

TEST(CxxKernels, DeclarationsInCppSourcesLinkToDefinitionsInCudaSources) {
  // load_inline(cpp_sources=decls + PYBIND11_MODULE, cuda_sources=definitions).
  std::vector<embed::EmbeddedSource> sources;
  sources.push_back(cpp(R"cpp(#include <torch/extension.h>
torch::Tensor fused(torch::Tensor x);
torch::Tensor via_blas(torch::Tensor x);
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("fused", &fused);
  m.def("via_blas", &via_blas);
}
)cpp", 5));
  sources.push_back(cuda(R"cu(#include <cublas_v2.h>
__global__ void fused_kernel(float* x) {}
void helper(float* p) { fused_kernel<<<1, 32>>>(p); }
torch::Tensor fused(torch::Tensor x) { helper(x.data_ptr<float>()); return x; }
torch::Tensor via_blas(torch::Tensor x) {
  cublasHandle_t h = at::cuda::getCurrentCUDABlasHandle();
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, nullptr, nullptr, 1, nullptr, 1, nullptr, nullptr, 1);
  return x;
}
)cu", 20));
  const CxxFacts f = analyzeSources(sources);
  ASSERT_EQ(f.parses.size(), 2u);
  EXPECT_FALSE(f.parses[0].cuda);
  EXPECT_TRUE(f.parses[1].cuda);
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const ExportedFunction *fused = exported(f, "fused");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->source, 0);
  EXPECT_EQ(fused->lines, (LineRange{9, 9}));
  EXPECT_TRUE(fused->defined);
  EXPECT_EQ(fused->kernels, std::vector<std::string>{"fused_kernel"});
  const ExportedFunction *blas = exported(f, "via_blas");
  ASSERT_NE(blas, nullptr);
  EXPECT_FALSE(blas->launchesKernel());
  ASSERT_EQ(blas->libraryCalls.size(), 2u); // the handle, then the GEMM
  const CxxCall &sgemm = f.calls[blas->libraryCalls[1]];
  EXPECT_EQ(sgemm.callee, "cublasSgemm");
  EXPECT_EQ(sgemm.category, CallCategory::Cublas);
  EXPECT_EQ(sgemm.source, 1);
  EXPECT_EQ(sgemm.lines, (LineRange{26, 26}));
}

TEST(CxxKernels, FunctionsListExportsAndJoinedCudaStrings) {
  // Two strings of one cuda_sources list are one file, as torch joins them; the second
  // uses a kernel the first declares.
  std::vector<embed::EmbeddedSource> sources;
  sources.push_back(cuda("__global__ void k(float* x) {}\n", 3));
  sources.push_back(cuda(R"cu(torch::Tensor run(torch::Tensor x) {
  k<<<1, 1>>>(x.data_ptr<float>());
  return x;
})cu", 10));
  FrontendOptions options;
  options.functionsByModule[0] = {"run", "missing"};
  const CxxFacts f = analyzeSources(sources, options);
  ASSERT_EQ(f.parses.size(), 1u);
  EXPECT_EQ(f.parses[0].sources, (std::vector<int>{0, 1}));
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const ExportedFunction *run = exported(f, "run");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->via, ExportVia::FunctionsList);
  EXPECT_EQ(run->source, 1);
  EXPECT_EQ(run->lines, (LineRange{10, 13}));
  EXPECT_EQ(run->kernels, std::vector<std::string>{"k"});
  ASSERT_EQ(f.launches.size(), 1u);
  EXPECT_EQ(f.launches[0].source, 1);
  EXPECT_EQ(f.launches[0].lines, (LineRange{11, 11}));
  EXPECT_EQ(function(f, "k")->source, 0);
  EXPECT_EQ(function(f, "k")->lines, (LineRange{3, 3}));
  const ExportedFunction *missing = exported(f, "missing");
  ASSERT_NE(missing, nullptr);
  EXPECT_FALSE(missing->defined);
}

TEST(CxxKernels, AnalyzeEmbeddedTakesFunctionsFromModules) {
  embed::EmbedFacts e;
  e.sources.push_back(cuda("__global__ void k() {}\nvoid go() { k<<<1, 1>>>(); }\n"));
  e.modules.push_back(embed::ExtensionModule{"ext", "_ext", {"go"}, "", {}});
  const CxxFacts f = analyzeEmbedded(e);
  ASSERT_EQ(f.exports.size(), 1u);
  EXPECT_EQ(f.exports[0].kernels, std::vector<std::string>{"k"});
}

} // namespace
