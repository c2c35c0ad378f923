// tl.dot precision arguments and operand dtypes.

#include "triton_test_support.h"

namespace kbaudit::triton::testing {
namespace {

/// A matmul kernel skeleton: `body` is the K-loop body, indented by 8 spaces. The dot
/// of interest is the first one; launches come from `host`.
constexpr const char *kTf32Default = R"PY(
import torch
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        a = tl.load(a_ptr + k)
        b = tl.load(b_ptr + k)
        acc += tl.dot(a, b)
    tl.store(c_ptr, acc)

class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        c = torch.empty(a.shape[0], b.shape[1], device=a.device)
        mm[(1,)](a, b, c, a.shape[1], BLOCK=64)
        return c
)PY";

TEST(TritonDots, Tf32DefaultOnFp32Loads) {
  auto f = analyzeSource(kTf32Default);
  ASSERT_EQ(f.dots.size(), 1u);
  const Dot &d = f.dots[0];
  EXPECT_EQ(d.kernel, kernelIndex(f, "mm"));
  EXPECT_EQ(d.resolved, "triton.language.dot");
  EXPECT_FALSE(d.scaled);
  EXPECT_EQ(d.lines, (LineRange{11, 11}));
  EXPECT_FALSE(d.inputPrecision.present);
  EXPECT_FALSE(d.allowTf32.present);
  EXPECT_FALSE(d.outDtype.present);
  EXPECT_FALSE(d.acc.present);
  EXPECT_EQ(d.precision, "default");
  ASSERT_EQ(d.operands.size(), 2u);
  const DotOperand &a = d.operands[0];
  EXPECT_EQ(a.text, "a");
  EXPECT_EQ(a.origin, "tl.load(a_ptr + k)");
  EXPECT_EQ(a.originLines, (LineRange{9, 9}));
  EXPECT_TRUE(a.loaded);
  EXPECT_FALSE(a.cast.has_value());
  EXPECT_EQ(a.pointerParam, "a_ptr");
  EXPECT_TRUE(a.hostCasts.empty()); // forward's inputs: their dtype is the harness's
  EXPECT_EQ(a.source, DtypeSource::Unknown);
  EXPECT_EQ(a.dtype, "");
  EXPECT_EQ(d.operands[1].pointerParam, "b_ptr");
}

TEST(TritonDots, PrecisionArguments) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

PRECISION = tl.constexpr("tf32x3")
EXACT = False

@triton.jit
def k(a_ptr, b_ptr, P: tl.constexpr):
    a = tl.load(a_ptr)
    b = tl.load(b_ptr)
    c0 = tl.dot(a, b, input_precision="ieee")
    c1 = tl.dot(a, b, allow_tf32=False)
    c2 = tl.dot(a, b, allow_tf32=True, out_dtype=tl.float32)
    c3 = tl.dot(a, b, None, "tf32")
    c4 = tl.dot(a, b, input_precision=PRECISION)
    c5 = tl.dot(a, b, allow_tf32=EXACT)
    c6 = tl.dot(a, b, input_precision=P)
    c7 = tl.dot(a, b, c6, out_dtype=tl.float16, max_num_imprecise_acc=32)
)PY");
  ASSERT_EQ(f.dots.size(), 8u);
  EXPECT_EQ(f.dots[0].inputPrecision.text, "\"ieee\"");
  EXPECT_EQ(f.dots[0].inputPrecision.folded, "ieee");
  EXPECT_EQ(f.dots[0].precision, "ieee");

  EXPECT_TRUE(f.dots[1].allowTf32.present);
  EXPECT_EQ(f.dots[1].allowTf32.folded, "False");
  EXPECT_EQ(f.dots[1].precision, "ieee");

  EXPECT_EQ(f.dots[2].precision, "tf32");
  EXPECT_EQ(f.dots[2].outDtype.text, "tl.float32");
  EXPECT_EQ(f.dots[2].outDtype.folded, "fp32");

  // Positional: (input, other, acc, input_precision, ...).
  EXPECT_TRUE(f.dots[3].acc.present);
  EXPECT_EQ(f.dots[3].acc.folded, "None");
  EXPECT_EQ(f.dots[3].inputPrecision.folded, "tf32");
  EXPECT_EQ(f.dots[3].precision, "tf32");

  EXPECT_EQ(f.dots[4].inputPrecision.text, "PRECISION");
  EXPECT_EQ(f.dots[4].inputPrecision.folded, "tf32x3");
  EXPECT_EQ(f.dots[4].precision, "tf32x3");
  EXPECT_EQ(f.dots[5].allowTf32.folded, "False");
  EXPECT_EQ(f.dots[5].precision, "ieee");

  // Chosen at launch: present but not foldable.
  EXPECT_TRUE(f.dots[6].inputPrecision.present);
  EXPECT_EQ(f.dots[6].inputPrecision.folded, "");
  EXPECT_EQ(f.dots[6].precision, "");

  EXPECT_EQ(f.dots[7].acc.text, "c6");
  EXPECT_EQ(f.dots[7].outDtype.folded, "fp16");
  EXPECT_EQ(f.dots[7].maxNumImpreciseAcc.folded, "32");
  EXPECT_EQ(f.dots[7].precision, "default");
}

TEST(TritonDots, KernelCastsBeforeTheDot) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, b_ptr, c_ptr):
    a = tl.load(a_ptr).to(tl.float16)
    b_raw = tl.load(b_ptr)
    b = tl.cast(b_raw, tl.bfloat16)
    c = tl.dot(a, b)
    d = tl.dot(tl.load(a_ptr).to(tl.bfloat16), tl.trans(b))
    e = tl.dot(a.to(tl.float8e4nv), b.T)
    tl.store(c_ptr, c + d + e)
)PY");
  ASSERT_EQ(f.dots.size(), 3u);
  const DotOperand &a = f.dots[0].operands[0];
  ASSERT_TRUE(a.cast.has_value());
  EXPECT_EQ(a.cast->target.written, "tl.float16");
  EXPECT_EQ(a.cast->target.dtype, "fp16");
  EXPECT_EQ(a.cast->lines, (LineRange{6, 6}));
  EXPECT_EQ(a.source, DtypeSource::KernelCast);
  EXPECT_EQ(a.dtype, "fp16");
  EXPECT_TRUE(a.loaded); // the walk continues past the cast to the load
  EXPECT_EQ(a.pointerParam, "a_ptr");

  const DotOperand &b = f.dots[0].operands[1];
  ASSERT_TRUE(b.cast.has_value());
  EXPECT_EQ(b.cast->source, "b_raw");
  EXPECT_EQ(b.dtype, "bf16");
  EXPECT_EQ(b.pointerParam, "b_ptr");

  // Inline casts, tl.trans and .T are looked through.
  EXPECT_EQ(f.dots[1].operands[0].dtype, "bf16");
  EXPECT_EQ(f.dots[1].operands[1].text, "tl.trans(b)");
  EXPECT_EQ(f.dots[1].operands[1].dtype, "bf16");
  EXPECT_EQ(f.dots[2].operands[0].dtype, "fp8e4m3"); // the outermost cast decides
  EXPECT_EQ(f.dots[2].operands[1].dtype, "bf16");
}

TEST(TritonDots, HostCastsAtTheLaunchSite) {
  auto f = analyzeSource(R"PY(
import torch
import triton
import triton.language as tl

@triton.jit
def mm(a_ptr, b_ptr, c_ptr, stride_a, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a_ptrs = a_ptr + offs[:, None] * stride_a + offs[None, :]
    a = tl.load(a_ptrs)
    b = tl.load(b_ptr + offs[:, None] * BLOCK + offs[None, :])
    tl.store(c_ptr + offs, tl.dot(a, b))

def _matmul(a, b):
    c = torch.empty((a.shape[0], b.shape[1]), device=a.device, dtype=torch.float32)
    mm[(1,)](a, b, c, a.stride(0), BLOCK=64)
    return c

class ModelNew(torch.nn.Module):
    def __init__(self, w):
        super().__init__()
        self.w16 = w.to(torch.float16).contiguous()

    def forward(self, x):
        return _matmul(x.half(), self.w16)
)PY");
  ASSERT_EQ(f.dots.size(), 1u);
  const DotOperand &a = f.dots[0].operands[0];
  EXPECT_TRUE(a.loaded);
  EXPECT_EQ(a.pointerParam, "a_ptr");
  ASSERT_EQ(a.hostCasts.size(), 1u);
  EXPECT_EQ(a.hostCasts[0].launch, 0u);
  EXPECT_EQ(a.hostCasts[0].target.written, ".half()");
  EXPECT_EQ(a.hostCasts[0].target.dtype, "fp16");
  EXPECT_EQ(a.hostCasts[0].function, "ModelNew.forward");
  EXPECT_EQ(a.hostCasts[0].lines, (LineRange{24, 24}));
  EXPECT_EQ(a.source, DtypeSource::HostCast);
  EXPECT_EQ(a.dtype, "fp16");

  const DotOperand &b = f.dots[0].operands[1];
  EXPECT_EQ(b.origin, "tl.load(b_ptr + offs[:, None] * BLOCK + offs[None, :])");
  ASSERT_EQ(b.hostCasts.size(), 1u);
  EXPECT_EQ(b.hostCasts[0].target.written, "torch.float16");
  EXPECT_EQ(b.hostCasts[0].function, "ModelNew.__init__");
  EXPECT_EQ(b.dtype, "fp16");
}

TEST(TritonDots, ChainedAndConstructedOperands) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, BLOCK: tl.constexpr):
    a = tl.load(a_ptr)
    p = tl.dot(a, a)
    q = tl.dot(p, a)
    z = tl.zeros((BLOCK, BLOCK), dtype=tl.bfloat16)
    r = tl.dot(z, tl.dot(a, a, out_dtype=tl.float16))
)PY");
  ASSERT_EQ(f.dots.size(), 4u);
  EXPECT_EQ(f.dots[1].operands[0].source, DtypeSource::DotResult);
  EXPECT_EQ(f.dots[1].operands[0].dtype, "fp32");
  EXPECT_EQ(f.dots[2].operands[0].source, DtypeSource::Constructor);
  EXPECT_EQ(f.dots[2].operands[0].dtype, "bf16");
  EXPECT_EQ(f.dots[2].operands[1].dtype, "fp16");
}

TEST(TritonDots, DotScaledFormats) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, sa_ptr, b_ptr, sb_ptr):
    a = tl.load(a_ptr)
    b = tl.load(b_ptr)
    c = tl.dot_scaled(a, tl.load(sa_ptr), "e4m3", b, tl.load(sb_ptr), "e2m1", out_dtype=tl.float32)
)PY");
  ASSERT_EQ(f.dots.size(), 1u);
  const Dot &d = f.dots[0];
  EXPECT_TRUE(d.scaled);
  EXPECT_EQ(d.resolved, "triton.language.dot_scaled");
  EXPECT_EQ(d.lhsFormat.folded, "e4m3");
  EXPECT_EQ(d.rhsFormat.folded, "e2m1");
  EXPECT_EQ(d.outDtype.folded, "fp32");
  EXPECT_EQ(d.precision, "scaled");
  ASSERT_EQ(d.operands.size(), 2u);
  EXPECT_EQ(d.operands[0].source, DtypeSource::Format);
  EXPECT_EQ(d.operands[0].dtype, "fp8e4m3");
  EXPECT_EQ(d.operands[1].dtype, "fp4e2m1");
  EXPECT_EQ(d.operands[1].pointerParam, "b_ptr");
}

} // namespace
} // namespace kbaudit::triton::testing
