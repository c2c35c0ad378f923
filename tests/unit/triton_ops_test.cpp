// Casts and triton.language operations inside kernels.

#include "triton_test_support.h"

namespace kbaudit::triton::testing {
namespace {

TEST(TritonOps, CastsWithTargets) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

OUT = tl.bfloat16

@triton.jit
def k(x_ptr, o_ptr):
    x = tl.load(x_ptr)
    h = x.to(tl.float16)
    b = tl.cast(h, dtype=tl.float8e5)
    i = x.to(tl.int32, bitcast=True)
    y = x.to(o_ptr.dtype.element_ty)
    z = x.to(OUT)
    tl.store(o_ptr, y)

def host(x):
    return x.to(torch.float16)
)PY");
  ASSERT_EQ(f.casts.size(), 5u);
  unsigned kernel = kernelIndex(f, "k");
  EXPECT_EQ(f.casts[0].kernel, kernel);
  EXPECT_EQ(f.casts[0].source, "x");
  EXPECT_EQ(f.casts[0].target.written, "tl.float16");
  EXPECT_EQ(f.casts[0].target.dtype, "fp16");
  EXPECT_EQ(f.casts[0].lines, (LineRange{9, 9}));
  EXPECT_FALSE(f.casts[0].bitcast);
  EXPECT_EQ(f.casts[1].source, "h");
  EXPECT_EQ(f.casts[1].target.dtype, "fp8e5m2");
  EXPECT_EQ(f.casts[2].target.dtype, "int32");
  EXPECT_TRUE(f.casts[2].bitcast);
  EXPECT_EQ(f.casts[3].target.written, "o_ptr.dtype.element_ty");
  EXPECT_EQ(f.casts[3].target.dtype, ""); // known only at compile time
  EXPECT_EQ(f.casts[4].target.written, "OUT");
  EXPECT_EQ(f.casts[4].target.dtype, "bf16");
}

TEST(TritonOps, LibraryOperationsAreResolvedAndClassified) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def _combine(a, b):
    return a + b

@triton.jit
def k(x_ptr, i_ptr, o_ptr, c_ptr, BLOCK: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s = tl.sort(x, descending=True)
    t = tl.topk(x, K)
    c = tl.cumsum(x, axis=0)
    a = tl.associative_scan(x, 0, _combine)
    m = x.max(axis=0)
    e = libdevice.tanh(x) + tl.extra.cuda.libdevice.erf(x) + tl.exp(x)
    tl.atomic_add(c_ptr, tl.sum(x, axis=0))
    tl.store(o_ptr + offs, tl.where(x > 0, e, s))
)PY");
  EXPECT_EQ(opNames(f, OpKind::Sort), (std::vector<std::string>{"triton.language.sort", "triton.language.topk"}));
  EXPECT_EQ(opNames(f, OpKind::Scan),
            (std::vector<std::string>{"triton.language.cumsum", "triton.language.associative_scan"}));
  EXPECT_EQ(opNames(f, OpKind::Reduction), (std::vector<std::string>{"triton.language.max", "triton.language.sum"}));
  EXPECT_EQ(opNames(f, OpKind::Libdevice),
            (std::vector<std::string>{"triton.language.extra.libdevice.tanh",
                                      "triton.language.extra.cuda.libdevice.erf"}));
  EXPECT_EQ(opNames(f, OpKind::Atomic), (std::vector<std::string>{"triton.language.atomic_add"}));
  EXPECT_EQ(opNames(f, OpKind::Elementwise), (std::vector<std::string>{"triton.language.exp", "triton.language.where"}));
  EXPECT_EQ(opNames(f, OpKind::Memory), (std::vector<std::string>{"triton.language.load", "triton.language.store"}));
  EXPECT_EQ(opNames(f, OpKind::Index), (std::vector<std::string>{"triton.language.arange"}));

  const Op *max = nullptr;
  for (const auto &o : f.ops)
    if (o.name == "max")
      max = &o;
  ASSERT_NE(max, nullptr);
  EXPECT_TRUE(max->method);
  EXPECT_EQ(max->lines, (LineRange{17, 17}));
  EXPECT_EQ(max->kernel, kernelIndex(f, "k"));

  const Kernel &k = kernelNamed(f, "k");
  EXPECT_TRUE(k.work.sort);
  EXPECT_TRUE(k.work.scan);
  EXPECT_TRUE(k.work.reduction);
  EXPECT_TRUE(k.work.atomic);
  EXPECT_EQ(k.kind, WorkKind::Reduction);
  // The combine function is a jit helper of k (passed, not called): it adds nothing.
  EXPECT_EQ(kernelNamed(f, "_combine").kind, WorkKind::Empty);
}

TEST(TritonOps, OperationsOutsideKernelsAreIgnored) {
  auto f = analyzeSource(R"PY(
import torch
import triton
import triton.language as tl

def host(x):
    y = torch.sort(x)
    n = triton.cdiv(x.numel(), 128)
    return y.values.sum()
)PY");
  EXPECT_TRUE(f.ops.empty());
  EXPECT_TRUE(f.casts.empty());
}

} // namespace
} // namespace kbaudit::triton::testing
