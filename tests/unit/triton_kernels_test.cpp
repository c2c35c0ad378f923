// Kernel discovery: decorators, params and which are tl.constexpr, autotune configs,
// jit helpers.

#include "triton_test_support.h"

namespace kbaudit::triton::testing {
namespace {

using C = Constexpr;

TEST(TritonKernels, DecoratorFormsAndLines) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl
from triton import jit

@triton.jit
def plain(x_ptr, n):
    pass

@jit
def imported(x_ptr):
    pass

@triton.jit(do_not_specialize=["n"])
def with_options(x_ptr, n):
    pass

@triton.heuristics({"EVEN": lambda args: args["n"] % 64 == 0})
@triton.jit
def heuristic(x_ptr, n, EVEN: tl.constexpr):
    pass

def not_a_kernel(x):
    return x

@torch.compile
def compiled(x):
    return x
)PY");
  ASSERT_EQ(f.kernels.size(), 4u);
  EXPECT_EQ(f.kernels[0].qualname, "plain");
  EXPECT_EQ(f.kernels[0].lines, (LineRange{5, 7}));
  EXPECT_FALSE(f.kernels[0].autotune.has_value());
  EXPECT_FALSE(f.kernels[0].heuristics);
  EXPECT_EQ(f.kernels[1].name, "imported");
  EXPECT_EQ(f.kernels[2].name, "with_options");
  ASSERT_EQ(f.kernels[2].decorators.size(), 1u);
  EXPECT_EQ(f.kernels[2].decorators[0].resolved, "triton.jit");
  EXPECT_EQ(f.kernels[3].name, "heuristic");
  EXPECT_TRUE(f.kernels[3].heuristics);
  EXPECT_EQ(f.kernels[3].lines, (LineRange{17, 20}));
  EXPECT_EQ(f.findKernel("not_a_kernel"), nullptr);
  EXPECT_EQ(f.findKernel("compiled"), nullptr);
}

TEST(TritonKernels, AutotuneConfigs) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

CONFIGS = [
    triton.Config({"BLOCK": 64}, num_warps=4),
    triton.Config({"BLOCK": 128}, num_warps=8),
]

def make_configs():
    return [triton.Config({"BLOCK": b}) for b in (32, 64)]

@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=4), triton.Config({"BLOCK": 256})], key=["n"])
@triton.jit
def literal(x_ptr, n, BLOCK: tl.constexpr):
    pass

@triton.autotune(configs=CONFIGS, key=["M", "N"])
@triton.jit
def named(x_ptr, M, N, BLOCK: tl.constexpr):
    pass

@triton.autotune(configs=make_configs(), key=[])
@triton.jit
def generated(x_ptr, n, BLOCK: tl.constexpr):
    pass
)PY");
  ASSERT_EQ(f.kernels.size(), 3u);
  const Kernel &lit = kernelNamed(f, "literal");
  ASSERT_TRUE(lit.autotune.has_value());
  EXPECT_EQ(lit.autotune->lines, (LineRange{12, 12}));
  EXPECT_EQ(lit.autotune->configCount, 2u);
  EXPECT_EQ(lit.autotune->keys, (std::vector<std::string>{"n"}));

  const Kernel &named = kernelNamed(f, "named");
  ASSERT_TRUE(named.autotune.has_value());
  EXPECT_EQ(named.autotune->configsText, "CONFIGS");
  EXPECT_EQ(named.autotune->configCount, 2u);
  EXPECT_EQ(named.autotune->keys, (std::vector<std::string>{"M", "N"}));

  const Kernel &gen = kernelNamed(f, "generated");
  ASSERT_TRUE(gen.autotune.has_value());
  EXPECT_EQ(gen.autotune->configsText, "make_configs()");
  EXPECT_FALSE(gen.autotune->configCount.has_value());
  EXPECT_TRUE(gen.autotune->keys.empty());
}

TEST(TritonKernels, ConstexprOnePerLine) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def k(
    x_ptr,
    n,
    scale,
    BLOCK: tl.constexpr,
    ACT: "tl.constexpr" = 1,
):
    pid = tl.program_id(0)
)PY");
  const Kernel &k = kernelNamed(f, "k");
  EXPECT_EQ(paramNames(k), (std::vector<std::string>{"x_ptr", "n", "scale", "BLOCK", "ACT"}));
  EXPECT_EQ(constexprStates(k), (std::vector<C>{C::No, C::No, C::No, C::Yes, C::Yes}));
  EXPECT_EQ(k.params[3].constexprEvidence, "annotation");
  EXPECT_EQ(k.params[0].constexprEvidence, "");
}

TEST(TritonKernels, ConstexprBlockClosingThePackedSignature) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl
from triton.language import constexpr

@triton.jit
def k(
    q_ptr, k_ptr, o_ptr,
    stride_q, stride_k,
    scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_N: constexpr,
):
    """Docstrings are part of the body."""
    pid = tl.program_id(0)
)PY");
  const Kernel &k = kernelNamed(f, "k");
  // `scale` might share the first constexpr line, so it is not claimed either way.
  EXPECT_EQ(constexprStates(k),
            (std::vector<C>{C::No, C::No, C::No, C::No, C::No, C::Unknown, C::Yes, C::Yes}));
}

TEST(TritonKernels, ConstexprFromShapeUseWhenTheLayoutIsAmbiguous) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, BM: tl.constexpr, BN: tl.constexpr, STAGES: tl.constexpr, M):
    offs = tl.arange(0, BM)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in tl.static_range(STAGES):
        pass

@triton.jit
def no_annotations(x_ptr, n, BLOCK):
    offs = tl.arange(0, BLOCK)
    y = tl.reshape(x_ptr, (BLOCK, n))
)PY");
  const Kernel &k = kernelNamed(f, "k");
  EXPECT_EQ(constexprStates(k), (std::vector<C>{C::Unknown, C::Unknown, C::Unknown, C::Yes, C::Yes, C::Yes, C::Unknown}));
  EXPECT_EQ(k.params[3].constexprEvidence, "shape-use");
  const Kernel &plain = kernelNamed(f, "no_annotations");
  // No annotation anywhere: only what Triton forces is constexpr (n is the fixture's
  // misuse of a runtime value as a shape, reported as written).
  EXPECT_EQ(constexprStates(plain), (std::vector<C>{C::No, C::Yes, C::Yes}));
}

TEST(TritonKernels, HelpersAreLinked) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def _leaf(x):
    return tl.sum(x, axis=0)

@triton.jit
def _mid(x):
    return _leaf(x) * 2

@triton.jit
def kernel(x_ptr, o_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(o_ptr, _mid(x))

def run(x, o):
    kernel[(1,)](x, o, BLOCK=128)
)PY");
  unsigned leaf = kernelIndex(f, "_leaf"), mid = kernelIndex(f, "_mid"), top = kernelIndex(f, "kernel");
  EXPECT_EQ(f.kernels[top].calls, (std::vector<unsigned>{mid}));
  EXPECT_EQ(f.kernels[mid].calls, (std::vector<unsigned>{leaf}));
  EXPECT_EQ(f.kernels[leaf].calledBy, (std::vector<unsigned>{mid}));
  EXPECT_TRUE(f.kernels[top].launched);
  EXPECT_FALSE(f.kernels[mid].launched);
  // The reduction in the leaf helper is the launched kernel's work too.
  EXPECT_TRUE(f.kernels[top].work.reduction);
  EXPECT_EQ(f.kernels[top].kind, WorkKind::Reduction);
  EXPECT_FALSE(f.kernels[top].work.elementwiseOnly);
}

TEST(TritonKernels, NoTritonNoFacts) {
  auto f = analyzeSource(R"PY(
import torch
def forward(x):
    return torch.relu(x)
)PY");
  EXPECT_TRUE(f.kernels.empty());
  EXPECT_TRUE(f.launches.empty());
  EXPECT_TRUE(f.dots.empty());
  EXPECT_TRUE(f.ops.empty());
}

TEST(TritonKernels, BrokenSourceKeepsWhatParsed) {
  auto f = analyzeSource(R"PY(
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, *args, BLOCK: tl.constexpr, **kw):
    x = tl.load(x_ptr
    tl.store(x_ptr, tl.dot(x, x, input_precision=
def host(:
    k[(1,)](
)PY");
  // Whatever the parser recovered, the analysis must not fail on partial facts.
  for (const auto &d : f.dots)
    EXPECT_LT(d.kernel, f.kernels.size());
  EXPECT_TRUE(analyze(py::analyze("")).kernels.empty());
  EXPECT_TRUE(analyze(py::analyze("@triton.jit\n")).kernels.empty());
}

} // namespace
} // namespace kbaudit::triton::testing
