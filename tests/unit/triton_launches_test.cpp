// Where kernels are launched: from forward, from helpers, from methods, with grids.

#include "triton_test_support.h"

namespace kbaudit::triton::testing {
namespace {

TEST(TritonLaunches, FromForwardHelpersAndMethods) {
  auto f = analyzeSource(R"PY(
import torch
import triton
import triton.language as tl
from .other import imported_kernel

@triton.jit
def add_kernel(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pass

def _launch_add(x, y):
    o = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)
    add_kernel[grid](x, y, o, x.numel(), BLOCK=1024)
    return o

class ModelNew(torch.nn.Module):
    @staticmethod
    @triton.jit
    def method_kernel(x_ptr):
        pass

    def forward(self, x, y):
        self.method_kernel[(1,)](x)
        imported_kernel[(4,)](x)
        return _launch_add(x, y)
)PY");
  ASSERT_EQ(f.kernels.size(), 2u);
  ASSERT_EQ(f.launches.size(), 3u);

  const Launch &add = f.launches[0];
  EXPECT_EQ(add.kernelText, "add_kernel");
  EXPECT_EQ(add.kernel, kernelIndex(f, "add_kernel"));
  EXPECT_EQ(add.function, "_launch_add");
  EXPECT_EQ(add.grid, "grid");
  EXPECT_EQ(add.lines, (LineRange{13, 13}));
  ASSERT_EQ(add.args.size(), 5u);
  EXPECT_EQ(add.args[4].keyword, "BLOCK");

  const Launch &method = f.launches[1];
  EXPECT_EQ(method.kernelText, "self.method_kernel");
  EXPECT_EQ(method.kernel, kernelIndex(f, "ModelNew.method_kernel"));
  EXPECT_EQ(method.function, "ModelNew.forward");
  EXPECT_EQ(method.grid, "(1,)");

  const Launch &imported = f.launches[2];
  EXPECT_EQ(imported.kernelText, "imported_kernel");
  EXPECT_FALSE(imported.kernel.has_value());
  EXPECT_TRUE(imported.candidates.empty());
  EXPECT_EQ(imported.grid, "(4,)");

  EXPECT_TRUE(kernelNamed(f, "add_kernel").launched);
  EXPECT_TRUE(kernelNamed(f, "ModelNew.method_kernel").launched);
}

TEST(TritonLaunches, SameNameResolvesToTheNearestDefinition) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def kernel(x_ptr):
    pass

def build():
    @triton.jit
    def kernel(x_ptr):
        tl.store(x_ptr, 1.0)
    kernel[(1,)](buf)

def other(buf):
    kernel[(2,)](buf)
)PY");
  ASSERT_EQ(f.kernels.size(), 2u);
  ASSERT_EQ(f.launches.size(), 2u);
  EXPECT_EQ(f.launches[0].kernel, kernelIndex(f, "build.kernel"));
  EXPECT_EQ(f.launches[1].kernel, kernelIndex(f, "kernel"));
}

TEST(TritonLaunches, ThroughALocalAlias) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def _small(x_ptr):
    pass

@triton.jit
def _large(x_ptr):
    pass

def run(x, big):
    kernel = _large if big else _small
    kernel[(1,)](x)

def run_one(x):
    k = _small
    k[(1,)](x)
)PY");
  ASSERT_EQ(f.launches.size(), 2u);
  EXPECT_FALSE(f.launches[0].kernel.has_value());
  EXPECT_EQ(f.launches[0].candidates, (std::vector<unsigned>{kernelIndex(f, "_large"), kernelIndex(f, "_small")}));
  EXPECT_EQ(f.launches[1].kernel, kernelIndex(f, "_small"));
  EXPECT_TRUE(kernelNamed(f, "_large").launched);
  EXPECT_TRUE(kernelNamed(f, "_small").launched);
}

TEST(TritonLaunches, UnlaunchedKernelIsNotLaunched) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def never(x_ptr):
    pass
)PY");
  ASSERT_EQ(f.kernels.size(), 1u);
  EXPECT_FALSE(f.kernels[0].launched);
  EXPECT_TRUE(f.launches.empty());
}

} // namespace
} // namespace kbaudit::triton::testing
