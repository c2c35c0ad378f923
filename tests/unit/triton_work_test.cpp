// Per-kernel work classification.

#include "triton_test_support.h"

namespace kbaudit::triton::testing {
namespace {

constexpr const char *kKernels = R"PY(
import triton
import triton.language as tl

@triton.jit
def relu_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(o_ptr + offs, tl.maximum(x, 0.0), mask=mask)

@triton.jit
def copy_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(o_ptr + offs, x, mask=offs < n)

@triton.jit
def scale_kernel(x_ptr, o_ptr, s):
    x = tl.load(x_ptr)
    y = x * s
    tl.store(o_ptr, y)

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        acc = tl.dot(tl.load(a_ptr), tl.load(b_ptr), acc)
    tl.store(c_ptr, acc)

@triton.jit
def rowsum_kernel(x_ptr, o_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(o_ptr, tl.sum(x, axis=0))

@triton.jit
def loop_sum_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    ptrs = x_ptr + tl.arange(0, BLOCK)
    for start in tl.range(0, n, BLOCK):
        v = tl.load(ptrs, mask=start < n)
        total += v
        ptrs += BLOCK
    tl.store(o_ptr, total)

@triton.jit
def while_max_kernel(x_ptr, o_ptr, n):
    i = 0
    best = tl.load(x_ptr)
    while i < n:
        v = tl.load(x_ptr + i)
        best = tl.maximum(best, v)
        i += 1
    tl.store(o_ptr, best)

@triton.jit
def grid_stride_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, BLOCK * tl.num_programs(0)):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs)
        tl.store(o_ptr + offs, v * 2.0)
)PY";

TEST(TritonWork, Classification) {
  auto f = analyzeSource(kKernels);
  const Kernel &relu = kernelNamed(f, "relu_kernel");
  EXPECT_EQ(relu.kind, WorkKind::Elementwise);
  EXPECT_TRUE(relu.work.elementwiseOnly);
  EXPECT_FALSE(relu.work.copyOnly);
  EXPECT_TRUE(relu.work.loads);
  EXPECT_TRUE(relu.work.stores);
  EXPECT_TRUE(relu.work.compute);

  const Kernel &copy = kernelNamed(f, "copy_kernel");
  EXPECT_EQ(copy.kind, WorkKind::Copy);
  EXPECT_TRUE(copy.work.elementwiseOnly);
  EXPECT_TRUE(copy.work.copyOnly);

  // Arithmetic is only visible through what is stored: `y = x * s` is not a plain load.
  const Kernel &scale = kernelNamed(f, "scale_kernel");
  EXPECT_EQ(scale.kind, WorkKind::Elementwise);
  EXPECT_TRUE(scale.work.elementwiseOnly);

  const Kernel &mm = kernelNamed(f, "matmul_kernel");
  EXPECT_EQ(mm.kind, WorkKind::Matmul);
  EXPECT_TRUE(mm.work.matmul);
  EXPECT_TRUE(mm.work.loopReduction);
  EXPECT_FALSE(mm.work.elementwiseOnly);

  const Kernel &rowsum = kernelNamed(f, "rowsum_kernel");
  EXPECT_EQ(rowsum.kind, WorkKind::Reduction);
  EXPECT_FALSE(rowsum.work.loopReduction);
  EXPECT_FALSE(rowsum.work.elementwiseOnly);

  const Kernel &loopSum = kernelNamed(f, "loop_sum_kernel");
  EXPECT_EQ(loopSum.kind, WorkKind::LoopReduction);
  EXPECT_TRUE(loopSum.work.loopReduction);
  EXPECT_FALSE(loopSum.work.elementwiseOnly);

  const Kernel &whileMax = kernelNamed(f, "while_max_kernel");
  EXPECT_EQ(whileMax.kind, WorkKind::LoopReduction);

  // A loop over tiles without a carried accumulator is still elementwise.
  const Kernel &gridStride = kernelNamed(f, "grid_stride_kernel");
  EXPECT_FALSE(gridStride.work.loopReduction);
  EXPECT_EQ(gridStride.kind, WorkKind::Elementwise);
  EXPECT_TRUE(gridStride.work.elementwiseOnly);
}

TEST(TritonWork, NamesAreStable) {
  EXPECT_STREQ(workKindName(WorkKind::LoopReduction), "loop-reduction");
  EXPECT_STREQ(opKindName(OpKind::Libdevice), "libdevice");
  EXPECT_STREQ(dtypeSourceName(DtypeSource::HostCast), "host-cast");
}

} // namespace
} // namespace kbaudit::triton::testing
