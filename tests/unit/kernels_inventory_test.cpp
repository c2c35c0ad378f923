#include "kbaudit/facts.h"
#include "kbaudit/cxx/frontend.h"
#include "kbaudit/kernels/inventory.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kbaudit;
using kernels::Kernel;
using kernels::KernelKind;

namespace {

embed::EmbedFacts oneSource(std::string text, unsigned firstLine = 10) {
  embed::EmbedFacts e;
  embed::EmbeddedSource s;
  s.text = std::move(text);
  unsigned n = 1;
  for (char c : s.text)
    n += c == '\n';
  for (unsigned i = 0; i < n; ++i)
    s.lineMap.push_back(firstLine + i);
  s.module = 0;
  e.sources.push_back(std::move(s));
  e.modules.push_back(embed::ExtensionModule{"ext", "_ext", {}, "", {}});
  return e;
}

kernels::KernelInventory inventoryOf(const embed::EmbedFacts &e) {
  return kernels::buildInventory({}, e, cxx::analyzeEmbedded(e), {});
}

std::vector<const Kernel *> ofKind(const kernels::KernelInventory &inv, KernelKind kind) {
  std::vector<const Kernel *> out;
  for (const Kernel &k : inv.kernels)
    if (k.kind == kind)
      out.push_back(&k);
  return out;
}

TEST(KernelInventory, FindsGlobalsAndAsmOutsideCommentsAndStrings) {
  const auto inv = inventoryOf(oneSource(R"cu(// __global__ void commented(int x);
/* __global__ void block_commented(); */
const char* s = "__global__ void in_string()";
const char* r = R"x(asm("mma");)x";
template <int N>
__global__ void __launch_bounds__(256, 2) tiled_kernel(float* y) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, ..." : "=f"(y[0]));
}
extern "C" __global__
void plain(float* x) {}
namespace ns { __global__ void inner(const float* __restrict__ a) {} }
)cu"));
  const auto globals = ofKind(inv, KernelKind::CudaGlobal);
  ASSERT_EQ(globals.size(), 3u);
  EXPECT_EQ(globals[0]->name, "tiled_kernel");
  EXPECT_EQ(globals[0]->lines.begin, 14u); // the template header: embedded line 5 -> 10 + 4
  EXPECT_EQ(globals[0]->work, kernels::KernelWork::Matmul); // it issues mma.sync
  EXPECT_EQ(globals[1]->name, "plain");
  EXPECT_EQ(globals[1]->lines.begin, 18u);
  EXPECT_EQ(globals[1]->work, kernels::KernelWork::Copy); // an empty body: no compute, as Triton's Empty
  EXPECT_EQ(globals[2]->name, "ns::inner");
  const auto ptx = ofKind(inv, KernelKind::InlinePtx);
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_EQ(ptx[0]->lines.begin, 16u);
}

TEST(KernelInventory, LibraryOnlySourceHasNoKernels) {
  const auto inv = inventoryOf(oneSource(R"cu(#include <cublasLt.h>
torch::Tensor gemm(torch::Tensor a, torch::Tensor b) {
  // launch<<<grid, block>>> is what we would do with a __global__ kernel
  return at::matmul(a, b);
}
)cu"));
  EXPECT_TRUE(inv.kernels.empty());
}

Facts analyzed(const std::string &python) { return analyzeSource(SourceFile::fromBytes(python)); }

TEST(KernelInventory, TritonKernelReachedThroughHelperAndSelfAttribute) {
  const Facts f = analyzed(R"(import torch
import triton
import triton.language as tl

@triton.jit
def _k(x, n, B: tl.constexpr):
    pass

@triton.autotune(configs=[], key=["n"])
@triton.jit
def _unused(x, n, B: tl.constexpr):
    pass

def _launch(x):
    _k[(1,)](x, x.numel(), B=128)

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = _launch

    def forward(self, x):
        self.fn(x)
        return x
)");
  ASSERT_EQ(f.kernels.entryPoints, std::vector<std::string>{"Model.forward"});
  const auto triton = ofKind(f.kernels, KernelKind::Triton);
  ASSERT_EQ(triton.size(), 2u);
  EXPECT_EQ(triton[0]->name, "_k");
  EXPECT_TRUE(triton[0]->reachedFromForward);
  EXPECT_EQ(triton[0]->lines, (LineRange{5, 7}));
  EXPECT_EQ(triton[1]->name, "_unused");
  EXPECT_FALSE(triton[1]->reachedFromForward);
}

TEST(KernelInventory, OnlyTheKernelsOfTheCalledExportAreReached) {
  const Facts f = analyzed(R"PY(import torch
from torch.utils.cpp_extension import load_inline

src = r'''
__global__ void used_kernel(float* x) { x[0] = 1.f; }
__global__ void unused_kernel(float* x) { x[0] = 2.f; }
void run(torch::Tensor x) { used_kernel<<<1, 1>>>(x.data_ptr<float>()); }
void other(torch::Tensor x) { unused_kernel<<<1, 1>>>(x.data_ptr<float>()); }
'''
ext = load_inline(name="e", cpp_sources="void run(torch::Tensor x);\nvoid other(torch::Tensor x);",
                  cuda_sources=src, functions=["run", "other"])

class ModelNew(torch.nn.Module):
    def forward(self, x):
        ext.run(x)
        return x
)PY");
  const auto globals = ofKind(f.kernels, KernelKind::CudaGlobal);
  ASSERT_EQ(globals.size(), 2u);
  EXPECT_EQ(globals[0]->name, "used_kernel");
  EXPECT_TRUE(globals[0]->reachedFromForward);
  EXPECT_EQ(globals[0]->lines, (LineRange{5, 5}));
  EXPECT_EQ(globals[1]->name, "unused_kernel");
  EXPECT_FALSE(globals[1]->reachedFromForward);
}

TEST(KernelInventory, ModelNewIsTheEntryPointWhenPresent) {
  const Facts f = analyzed(R"(import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return x
class ModelNew(torch.nn.Module):
    def forward(self, x):
        return x
)");
  EXPECT_EQ(f.kernels.entryPoints, std::vector<std::string>{"ModelNew.forward"});
}

TEST(KernelInventory, CallOverrideAndPublicMethodsAreEntryPoints) {
  const Facts call = analyzed("import torch\nclass Model(torch.nn.Module):\n    def __call__(self, x):\n        return x\n");
  EXPECT_EQ(call.kernels.entryPoints, std::vector<std::string>{"Model.__call__"});
  const Facts decode = analyzed(R"(import torch
class Model(torch.nn.Module):
    def _helper(self, x):
        return x
    def step(self, x, state):
        return x
    def reset(self):
        pass
)");
  EXPECT_EQ(decode.kernels.entryPoints, (std::vector<std::string>{"Model.step", "Model.reset"}));
}

// GPU MODE / kernelbot submissions define `custom_kernel(data)`, pygpubench ones
// `kernel(output, *inputs)`: without a model class, that function is what the harness grades.
TEST(KernelInventory, FunctionStyleHarnessEntryPoints) {
  const Facts gpumode = analyzed(R"(import torch
def _pack(a):
    return a.contiguous()
def custom_kernel(data):
    a, b = data
    return _pack(a) @ b
)");
  EXPECT_EQ(gpumode.kernels.entryPoints, std::vector<std::string>{"custom_kernel"});
  EXPECT_TRUE(std::count(gpumode.kernels.reachableFunctions.begin(), gpumode.kernels.reachableFunctions.end(), "_pack"));
  const Facts pygpubench = analyzed("import torch\ndef kernel(output, x):\n    output.copy_(x * 2)\n");
  EXPECT_EQ(pygpubench.kernels.entryPoints, std::vector<std::string>{"kernel"});
  const Facts both = analyzed(R"(import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return x
def custom_kernel(data):
    return data
)");
  EXPECT_EQ(both.kernels.entryPoints, std::vector<std::string>{"Model.forward"}) << "a model class wins";
  const Facts method = analyzed("class Helper:\n    def kernel(self, x):\n        return x\n");
  EXPECT_TRUE(method.kernels.entryPoints.empty()) << "a method named kernel is not the pygpubench entry";
  const Facts jitted = analyzed(R"(import triton
import triton.language as tl
@triton.jit
def kernel(x_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n) * 2, mask=o < n)
)");
  EXPECT_TRUE(jitted.kernels.entryPoints.empty()) << "a @triton.jit function named kernel is launched, not graded";
}

// A local import is unseen code only when it can run: GPU MODE's `from task import input_t,
// output_t` names types for annotations, while a sidecar module's function is called.
TEST(KernelInventory, LocalImportsUsedOnlyAsAnnotationsAreNotUnseenCode) {
  const Facts types = analyzed(R"(import torch
from task import input_t, output_t
def custom_kernel(data: input_t) -> output_t:
    a, b, c = data
    c.copy_(torch.matmul(a, b))
    return c
)");
  EXPECT_TRUE(types.kernels.unresolvedLocalImports.empty());
  for (const char *use : {"    return fast_mm(a, b)\n", "    k = fast_mm\n    return k(a, b)\n",
                          "    return torch.compile(fast_mm)(a, b)\n"}) {
    const Facts called = analyzed(std::string("import torch\nfrom mykernels import fast_mm\ndef custom_kernel(data):\n"
                                              "    a, b = data\n") + use);
    EXPECT_EQ(called.kernels.unresolvedLocalImports, std::vector<std::string>{"mykernels"}) << use;
  }
}

TEST(KernelWorkSummary, TritonKernelsAreClassifiedAndLibraryOpsCollected) {
  const Facts f = analyzed(R"(import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

@triton.jit
def _act(x_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(x_ptr + o, tl.maximum(tl.load(x_ptr + o, mask=o < n), 0.0), mask=o < n)

class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.w = torch.mm(torch.eye(d), torch.eye(d))

    def forward(self, x, y):
        h = self.proj(x)
        z = F.conv2d(h, y)
        s = h.cumsum(0)
        t = x @ y
        _act[(1,)](t, t.numel(), B=256)
        return t.view(-1)
)");
  ASSERT_EQ(f.kernels.kernels.size(), 1u);
  EXPECT_EQ(f.kernels.kernels[0].work, kernels::KernelWork::Elementwise);
  std::vector<std::string> ops;
  for (const kernels::LibraryOp &op : f.kernels.libraryOps)
    ops.push_back(std::string(kernels::heavyOpKindName(op.kind)) + " " + op.callee + " @" +
                  std::to_string(op.lines.begin));
  std::sort(ops.begin(), ops.end());
  // torch.mm in __init__ is one-time preprocessing, not forward's work.
  EXPECT_EQ(ops, (std::vector<std::string>{"conv torch.nn.functional.conv2d @20", "matmul @ @22",
                                           "matmul self.proj @19", "scan h.cumsum @21"}));
}

TEST(KernelInventory, LocalImportsAreUnresolved) {
  const Facts f = analyzed("import torch\nimport my_kernels\nfrom .impl import run\nimport os.path\nrun()\n");
  EXPECT_EQ(f.kernels.unresolvedLocalImports, (std::vector<std::string>{"my_kernels", "impl"}));
}

} // namespace
