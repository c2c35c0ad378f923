// Clang front end: calls with qualified callees and their categories.

#include "cxx_test_util.h"
#include "kbaudit/cxx/frontend.h"

#include <gtest/gtest.h>

using namespace kbaudit;
using namespace kbaudit::cxx;
using namespace kbaudit::cxx::test;

namespace {

TEST(CxxCalls, AtenOpsResolveThroughTorchAliasesAndTensorMethods) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
torch::Tensor forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
  auto y = at::conv2d(x, w, b, {1, 1}, {0, 0});
  auto z = torch::mm(y.view({-1, 4}), w.t());
  auto h = z.matmul(w).to(torch::kHalf);
  auto s = torch::nn::functional::linear(h, w);
  return at::bmm(s, s) + z * 2;
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const CxxCall *conv = call(f, "at::conv2d");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->category, CallCategory::Aten);
  EXPECT_EQ(conv->function, "forward");
  EXPECT_EQ(conv->arguments, (std::vector<std::string>{"x", "w", "b", "{1, 1}", "{0, 0}"}));
  EXPECT_EQ(conv->lines, (LineRange{3, 3}));
  const CxxCall *mm = call(f, "at::mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->spelled, "torch::mm");
  const CxxCall *matmul = call(f, "at::Tensor::matmul");
  ASSERT_NE(matmul, nullptr);
  EXPECT_TRUE(matmul->member);
  EXPECT_EQ(matmul->spelled, "z.matmul");
  EXPECT_EQ(call(f, "at::Tensor::view")->category, CallCategory::AtenMeta);
  EXPECT_EQ(call(f, "at::Tensor::to")->category, CallCategory::Aten);
  EXPECT_EQ(call(f, "torch::nn::functional::linear")->category, CallCategory::Aten);
  EXPECT_EQ(call(f, "at::bmm")->category, CallCategory::Aten);
  EXPECT_EQ(call(f, "at::operator*")->category, CallCategory::Aten);
  // The dtype constant is a numeric fact.
  EXPECT_NE(findFact(f.numericTypes, [](const NumericUse &u) {
              return u.type == NumericType::Half && u.kind == NumericUseKind::LibraryConstant;
            }),
            nullptr);
}

TEST(CxxCalls, VendorLibraries) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
#include <cublasLt.h>
#include <cudnn.h>
void blas(cublasLtHandle_t lt, cudnnHandle_t dnn) {
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F);
  cublasLtMatmul(lt, desc, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0);
  cudnnSetConvolutionMathType(nullptr, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION);
  cudnnConvolutionForward(dnn, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, nullptr, 0, nullptr, nullptr, nullptr);
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(call(f, "cublasLtMatmulDescCreate")->category, CallCategory::CublasLt);
  EXPECT_EQ(call(f, "cublasLtMatmul")->category, CallCategory::CublasLt);
  EXPECT_EQ(call(f, "cudnnConvolutionForward")->category, CallCategory::Cudnn);
  EXPECT_EQ(call(f, "cudnnSetConvolutionMathType")->arguments[1], "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION");
  EXPECT_EQ(countFacts(f.numericTypes, [](const NumericUse &u) {
              return u.type == NumericType::Tf32 && u.spelling == "CUBLAS_COMPUTE_32F_FAST_TF32";
            }),
            1u);
}

TEST(CxxCalls, CutlassDeviceOperatorsAndCuteAlgorithms) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
#include "cutlass/cutlass.h"
#include "cutlass/gemm/device/gemm.h"
#include <cute/tensor.hpp>
using Gemm = cutlass::gemm::device::Gemm<cutlass::half_t, cutlass::layout::RowMajor,
                                         cutlass::half_t, cutlass::layout::ColumnMajor,
                                         float, cutlass::layout::RowMajor, float,
                                         cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80>;
torch::Tensor run(torch::Tensor a, int M, int N, int K) {
  Gemm gemm_op;
  Gemm::Arguments args({M, N, K}, {nullptr, K}, {nullptr, K}, {nullptr, N}, {nullptr, N}, {1.0f, 0.0f});
  cutlass::Status status = gemm_op(args);
  TORCH_CHECK(status == cutlass::Status::kSuccess, "gemm failed");
  return a;
}
__global__ void cute_kernel(float* p) {
  using namespace cute;
  auto t = make_tensor(make_gmem_ptr(p), make_shape(Int<16>{}, Int<16>{}));
  auto tile = local_tile(t, make_shape(Int<8>{}, Int<8>{}), make_coord(0, 0));
  cute::gemm(tile, tile, tile);
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const CxxCall *op = call(f, "cutlass::gemm::device::Gemm::operator()");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->category, CallCategory::Cutlass);
  EXPECT_EQ(op->function, "run");
  const CxxCall *gemm = call(f, "cute::gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->category, CallCategory::Cute);
  EXPECT_TRUE(gemm->inDevice);
  EXPECT_EQ(call(f, "cute::local_tile"), nullptr); // layout algebra, not work
  // The element type of the CUTLASS template is a numeric fact of the alias.
  EXPECT_NE(findFact(f.numericTypes, [](const NumericUse &u) {
              return u.type == NumericType::Half && u.kind == NumericUseKind::TemplateArgument &&
                     u.spelling == "cutlass::half_t";
            }),
            nullptr);
  const ApiReference *tmpl = findFact(f.references, [](const ApiReference &r) {
    return r.name == "cutlass::gemm::device::Gemm" && r.category == CallCategory::Cutlass;
  });
  ASSERT_NE(tmpl, nullptr);
  EXPECT_EQ(tmpl->lines, (LineRange{5, 8})); // the alias
  const std::vector<Include> &inc = f.includes;
  ASSERT_EQ(inc.size(), 4u);
  EXPECT_EQ(inc[2].spelled, "cutlass/gemm/device/gemm.h");
  EXPECT_EQ(inc[2].resolution, IncludeResolution::Stub);
  EXPECT_FALSE(inc[2].angled);
}

TEST(CxxCalls, ACallThroughATemplateParameterIsFoundInTheInstantiationsOnly) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
#include "cutlass/gemm/device/gemm.h"
using Gemm = cutlass::gemm::device::Gemm<cutlass::half_t, cutlass::layout::RowMajor,
                                         cutlass::half_t, cutlass::layout::ColumnMajor,
                                         float, cutlass::layout::RowMajor, float>;
template <class G> cutlass::Status launch(G &g, const typename G::Arguments &args) {
  return g(args);
}
template <class G> cutlass::Status unused(G &g, const typename G::Arguments &args) {
  return g(args);
}
torch::Tensor run(torch::Tensor a, int M, int N, int K) {
  Gemm gemm_op;
  Gemm::Arguments args({M, N, K}, {nullptr, K}, {nullptr, K}, {nullptr, N}, {nullptr, N}, {1.0f, 0.0f});
  launch(gemm_op, args);
  launch(gemm_op, args);
  return a;
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  // `g(args)` resolves only in launch<Gemm> (once, however often it is instantiated); the
  // template never instantiated calls nothing kbaudit can name.
  std::vector<const CxxCall *> runs;
  for (const CxxCall &c : f.calls)
    if (c.callee == "cutlass::gemm::device::Gemm::operator()")
      runs.push_back(&c);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]->category, CallCategory::Cutlass);
  EXPECT_EQ(runs[0]->function, "launch");
  EXPECT_EQ(runs[0]->lines, (LineRange{7, 7}));
  EXPECT_EQ(runs[0]->spelled, "g(args)");
}

TEST(CxxCalls, StreamsEventsGraphsAndPersistingL2) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>
void setup(torch::Tensor w) {
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  cudaStreamAttrValue attr = {};
  attr.accessPolicyWindow.base_ptr = w.data_ptr();
  attr.accessPolicyWindow.num_bytes = w.nbytes();
  attr.accessPolicyWindow.hitRatio = 1.0f;
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 32 << 20);
  cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
  cudaStreamSetAttribute(stream, cudaStreamAttributePriority, &attr);
  cudaCtxResetPersistingL2Cache();
  cudaEvent_t start;
  cudaEventCreate(&start);
  cudaEventRecord(start, stream);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  cudaGraphLaunch(exec, stream);
  cudaDeviceSynchronize();
  c10::cuda::CUDAStreamGuard guard(at::cuda::getStreamFromPool(true));
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(call(f, "cudaDeviceSetLimit")->category, CallCategory::L2);
  EXPECT_EQ(call(f, "cudaCtxResetPersistingL2Cache")->category, CallCategory::L2);
  EXPECT_EQ(countFacts(f.calls, [](const CxxCall &c) {
              return c.callee == "cudaStreamSetAttribute" && c.category == CallCategory::L2;
            }),
            1u);
  EXPECT_EQ(countFacts(f.calls, [](const CxxCall &c) {
              return c.callee == "cudaStreamSetAttribute" && c.category == CallCategory::Stream;
            }),
            1u);
  EXPECT_EQ(call(f, "cudaEventRecord")->category, CallCategory::Event);
  EXPECT_EQ(call(f, "cudaStreamBeginCapture")->category, CallCategory::Graph);
  EXPECT_EQ(call(f, "cudaGraphLaunch")->category, CallCategory::Graph);
  EXPECT_EQ(call(f, "cudaDeviceSynchronize")->category, CallCategory::Sync);
  const CxxCall *guard = call(f, "c10::cuda::CUDAStreamGuard");
  ASSERT_NE(guard, nullptr);
  EXPECT_TRUE(guard->construction);
  EXPECT_EQ(guard->category, CallCategory::Stream);
  const auto l2 = countFacts(f.references, [](const ApiReference &r) { return r.category == CallCategory::L2; });
  EXPECT_GE(l2, 8u);
  EXPECT_NE(findFact(f.references, [](const ApiReference &r) {
              return r.name == "cudaAccessPropertyPersisting" && r.lines == LineRange{9, 9};
            }),
            nullptr);
  EXPECT_NE(findFact(f.references, [](const ApiReference &r) { return r.name == "cudaAccessPolicyWindow::hitProp"; }),
            nullptr);
}

TEST(CxxCalls, HostThreads) {
  const CxxFacts f = analyzeSources({cpp(R"cpp(#include <torch/extension.h>
#include <thread>
#include <future>
static void worker(int i) {}
void run() {
  std::vector<std::thread> pool;
  for (int i = 0; i < 4; ++i) pool.emplace_back(worker, i);
  std::thread t([] { worker(0); });
  t.join();
  auto fut = std::async(std::launch::async, worker, 1);
}
)cpp")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  const CxxCall *thread = call(f, "std::thread");
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(thread->category, CallCategory::Thread);
  EXPECT_TRUE(thread->construction);
  EXPECT_EQ(thread->lines, (LineRange{8, 8}));
  EXPECT_EQ(call(f, "std::async")->category, CallCategory::Thread);
  // Functions handed to threads are reachable from the function starting them.
  EXPECT_NE(findFact(f.callGraph, [](const CallEdge &e) { return e.caller == "run" && e.callee == "worker"; }),
            nullptr);
}

} // namespace
