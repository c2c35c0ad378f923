// Call sites: callee, resolution, arguments, Triton launches, setattr.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

constexpr const char *kLoadInline = "torch.utils.cpp_extension.load_inline";

TEST(PythonCalls, ArgumentSummaries) {
  auto f = analyze(src(R"PY(
from torch.utils.cpp_extension import load_inline
CPP = "torch::Tensor f(torch::Tensor x);"
ext = load_inline(
    "positional_name",
    cpp_sources=CPP,
    cuda_sources=["__global__ void k() {}"],
    functions=["f", "g"],
    extra_cuda_cflags=("-O3", "--use_fast_math"),
    verbose=False,
    build_directory=None,
    *more,
    **options,
)
)PY"));
  const Call *c = callTo(f, kLoadInline);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->lines, (LineRange{3, 13}));
  ASSERT_EQ(c->args.size(), 9u);

  const Argument *p0 = c->positionalArg(0);
  ASSERT_NE(p0, nullptr);
  EXPECT_EQ(p0->value.kind, ExprKind::String);
  EXPECT_EQ(p0->value.string->value, "positional_name");
  EXPECT_EQ(c->positionalArg(1), nullptr);

  const Argument *cpp = c->keywordArg("cpp_sources");
  ASSERT_NE(cpp, nullptr);
  EXPECT_EQ(cpp->value.kind, ExprKind::Name);
  EXPECT_EQ(cpp->value.text, "CPP");
  EXPECT_EQ(cpp->value.resolved, "CPP");
  ASSERT_TRUE(cpp->value.string.has_value());
  EXPECT_EQ(cpp->value.string->value, "torch::Tensor f(torch::Tensor x);");
  EXPECT_EQ(cpp->value.string->lineOrigins, lines({2}));
  EXPECT_EQ(cpp->value.lines, (LineRange{5, 5}));

  const Argument *cuda = c->keywordArg("cuda_sources");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->value.kind, ExprKind::List);
  ASSERT_EQ(cuda->value.elements.size(), 1u);
  EXPECT_EQ(cuda->value.elements[0].kind, ExprKind::String);
  EXPECT_EQ(cuda->value.elements[0].string->value, "__global__ void k() {}");

  const Argument *fns = c->keywordArg("functions");
  ASSERT_NE(fns, nullptr);
  ASSERT_EQ(fns->value.elements.size(), 2u);
  EXPECT_EQ(fns->value.elements[1].string->value, "g");

  const Argument *flags = c->keywordArg("extra_cuda_cflags");
  ASSERT_NE(flags, nullptr);
  EXPECT_EQ(flags->value.kind, ExprKind::Tuple);
  ASSERT_EQ(flags->value.elements.size(), 2u);
  EXPECT_EQ(flags->value.elements[1].string->value, "--use_fast_math");

  EXPECT_EQ(c->keywordArg("verbose")->value.kind, ExprKind::Bool);
  EXPECT_EQ(c->keywordArg("build_directory")->value.kind, ExprKind::None);
  const Argument *star = c->keywordArg("*");
  ASSERT_NE(star, nullptr);
  EXPECT_EQ(star->value.text, "more");
  const Argument *dstar = c->keywordArg("**");
  ASSERT_NE(dstar, nullptr);
  EXPECT_EQ(dstar->value.text, "options");
}

TEST(PythonCalls, NameBoundToAListOfNamesGetsElementsWithTheirStrings) {
  auto f = analyze(src(R"PY(
from torch.utils.cpp_extension import load_inline
A = """
__global__ void a() {}
"""
B = "void b();\n"
srcs = [A, B]

def build():
    return load_inline(name="x", cpp_sources=[], cuda_sources=srcs)
)PY"));
  const Call *c = callTo(f, kLoadInline);
  ASSERT_NE(c, nullptr);
  const Argument *cuda = c->keywordArg("cuda_sources");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->value.kind, ExprKind::Name);
  ASSERT_EQ(cuda->value.elements.size(), 2u);
  const Expr &a = cuda->value.elements[0];
  EXPECT_EQ(a.kind, ExprKind::Name);
  EXPECT_EQ(a.text, "A");
  EXPECT_EQ(a.lines, (LineRange{6, 6})); // where the element is written
  ASSERT_TRUE(a.string.has_value());
  EXPECT_EQ(a.string->value, "\n__global__ void a() {}\n");
  EXPECT_EQ(a.string->lineOrigins, lines({2, 3}));
  const Expr &b = cuda->value.elements[1];
  ASSERT_TRUE(b.string.has_value());
  EXPECT_EQ(b.string->value, "void b();\n");
  EXPECT_EQ(b.string->lineOrigins, lines({5}));
  // An empty list stays a list without elements.
  const Argument *cpp = c->keywordArg("cpp_sources");
  EXPECT_EQ(cpp->value.kind, ExprKind::List);
  EXPECT_TRUE(cpp->value.elements.empty());
}

TEST(PythonCalls, NumbersFold) {
  auto f = analyze(src(R"PY(
BLOCK = 128
run(a=BLOCK * 2, b=-1, c=1.5e3, d=0x10, e=1_000, f=2 ** 10, g=7 // 2, h=BLOCK, i=1 << 4, j=3j)
)PY"));
  const Call *c = callTo(f, "run");
  ASSERT_NE(c, nullptr);
  auto num = [&](const char *kw) { return c->keywordArg(kw)->value.number; };
  EXPECT_EQ(num("a"), 256.0);
  EXPECT_EQ(num("b"), -1.0);
  EXPECT_EQ(c->keywordArg("b")->value.kind, ExprKind::UnaryOp);
  EXPECT_EQ(num("c"), 1500.0);
  EXPECT_EQ(num("d"), 16.0);
  EXPECT_EQ(num("e"), 1000.0);
  EXPECT_EQ(num("f"), 1024.0);
  EXPECT_EQ(num("g"), 3.0);
  EXPECT_EQ(num("h"), 128.0);
  EXPECT_EQ(c->keywordArg("h")->value.kind, ExprKind::Name);
  EXPECT_EQ(num("i"), 16.0);
  EXPECT_FALSE(num("j").has_value());
}

TEST(PythonCalls, TritonLaunches) {
  auto f = analyze(src(R"PY(
import triton
import triton.language as tl

@triton.jit
def _kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass

@triton.autotune(configs=[], key=["n"])
@triton.jit
def tuned(x_ptr, n, BLOCK: tl.constexpr):
    pass

class ModelNew:
    def forward(self, x, n, B):
        _kernel[(triton.cdiv(n, B),)](x, n, BLOCK=128)
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        tuned[grid](x, n)
        self.kernel[grid](x)
        add_kernel[lambda meta: (n,)](x)
        y = self.layers[0](x)
        z = fns[name](x)
        return self.blocks[i](y)
)PY"));
  std::vector<std::string> launched;
  for (const auto &c : f.calls)
    if (!c.launchedKernel.empty())
      launched.push_back(c.launchedKernel);
  EXPECT_EQ(launched, (std::vector<std::string>{"_kernel", "tuned", "self.kernel", "add_kernel"}));

  const Call *k = nullptr;
  for (const auto &c : f.calls)
    if (c.launchedKernel == "_kernel")
      k = &c;
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->callee, "_kernel[(triton.cdiv(n, B),)]");
  EXPECT_EQ(k->resolved, "_kernel[...]");
  EXPECT_EQ(k->method, "_kernel");
  EXPECT_EQ(k->receiver, "");
  EXPECT_EQ(k->function, "ModelNew.forward");
  EXPECT_EQ(k->lines, (LineRange{15, 15}));
  ASSERT_EQ(k->args.size(), 3u);
  EXPECT_EQ(k->keywordArg("BLOCK")->value.number, 128.0);
  // The grid expression's own call is a call too.
  const Call *cdiv = callTo(f, "triton.cdiv");
  ASSERT_NE(cdiv, nullptr);
  EXPECT_EQ(cdiv->lines, (LineRange{15, 15}));

  for (const auto &c : f.calls) {
    if (c.launchedKernel == "self.kernel") {
      EXPECT_EQ(c.method, "kernel");
      EXPECT_EQ(c.receiver, "self");
    }
  }
}

TEST(PythonCalls, MethodReceiverAndImpureChains) {
  auto f = analyze(src(R"PY(
import torch
class M:
    def forward(self, x):
        h = x.half()
        y = self.ext.gemm(h)
        z = torch.randn(3, 4).cuda()
        w = torch.empty_like(x).normal_().abs()
        return super().forward(z)
)PY"));
  const Call *half = callTo(f, "x.half");
  ASSERT_NE(half, nullptr);
  EXPECT_EQ(half->method, "half");
  EXPECT_EQ(half->receiver, "x");
  EXPECT_EQ(half->callee, "x.half");

  const Call *gemm = callTo(f, "self.ext.gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->receiver, "self.ext");
  EXPECT_EQ(gemm->method, "gemm");

  const Call *cuda = callTo(f, "torch.randn(...).cuda");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->callee, "torch.randn(3, 4).cuda");
  EXPECT_EQ(cuda->receiver, "torch.randn(3, 4)");
  EXPECT_EQ(cuda->method, "cuda");
  EXPECT_NE(callTo(f, "torch.randn"), nullptr);

  EXPECT_NE(callTo(f, "torch.empty_like(...).normal_().abs"), nullptr);
  EXPECT_NE(callTo(f, "super().forward"), nullptr);
}

TEST(PythonCalls, CallOrderIsOuterBeforeInner) {
  auto f = analyze(src(R"PY(
out = torch.matmul(a.float(), b.float())
)PY"));
  ASSERT_EQ(f.calls.size(), 3u);
  EXPECT_EQ(f.calls[0].resolved, "torch.matmul");
  EXPECT_EQ(f.calls[1].resolved, "a.float");
  EXPECT_EQ(f.calls[2].resolved, "b.float");
  EXPECT_EQ(f.calls[0].args[0].value.kind, ExprKind::Call);
  EXPECT_EQ(f.calls[0].args[0].value.resolved, "a.float");
}

TEST(PythonCalls, SetattrIsAnAssignment) {
  auto f = analyze(src(R"PY(
import torch
setattr(torch.backends.cudnn, "allow_tf32", True)
setattr(obj, name, 1)

class M:
    def __init__(self):
        setattr(self, "cache", None)
)PY"));
  const Assignment *a = assignmentTo(f, "torch.backends.cudnn.allow_tf32");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->op, "setattr");
  EXPECT_EQ(a->kind, Assignment::TargetKind::ModuleAttribute);
  EXPECT_EQ(a->resolved, "torch.backends.cudnn.allow_tf32");
  EXPECT_EQ(a->value.kind, ExprKind::Bool);
  EXPECT_EQ(a->lines, (LineRange{2, 2}));
  EXPECT_EQ(a->function, "");

  const Assignment *dyn = assignmentTo(f, "obj.<dynamic>");
  ASSERT_NE(dyn, nullptr);
  EXPECT_EQ(dyn->kind, Assignment::TargetKind::Attribute);
  EXPECT_EQ(dyn->value.number, 1.0);

  const Assignment *self = assignmentTo(f, "self.cache");
  ASSERT_NE(self, nullptr);
  EXPECT_EQ(self->kind, Assignment::TargetKind::SelfAttribute);
  EXPECT_EQ(self->function, "M.__init__");
  ASSERT_EQ(f.selfAccesses.size(), 1u);
  EXPECT_EQ(f.selfAccesses[0].attribute, "cache");
  EXPECT_TRUE(f.selfAccesses[0].write);
  // setattr is still a call.
  EXPECT_EQ(callsTo(f, "setattr").size(), 3u);
}

TEST(PythonCalls, DecoratorCallsAreCallsOfTheEnclosingScope) {
  auto f = analyze(src(R"PY(
import triton
@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=4)], key=["n"])
@triton.jit
def k(x, n, BLOCK):
    pass
)PY"));
  const Call *autotune = callTo(f, "triton.autotune");
  ASSERT_NE(autotune, nullptr);
  EXPECT_EQ(autotune->function, "");
  const Call *config = callTo(f, "triton.Config");
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->keywordArg("num_warps")->value.number, 4.0);
  EXPECT_EQ(config->positionalArg(0)->value.kind, ExprKind::Dict);
}

TEST(PythonCalls, GeneratorArgument) {
  auto f = analyze(src(R"PY(
total = sum(x * x for x in xs)
)PY"));
  const Call *c = callTo(f, "sum");
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->args.size(), 1u);
  EXPECT_EQ(c->args[0].keyword, "");
  EXPECT_EQ(c->args[0].value.kind, ExprKind::Other);
  EXPECT_EQ(c->args[0].value.text, "(x * x for x in xs)");
}

TEST(PythonCalls, LongTextIsTruncatedOnACharacterBoundary) {
  std::string big = "x = f(\"" + std::string(600, 'a') + "\u00e9" + std::string(10, 'b') + "\")\n";
  auto f = analyze(big);
  const Call *c = callTo(f, "f");
  ASSERT_NE(c, nullptr);
  const Expr &arg = c->args[0].value;
  EXPECT_LE(arg.text.size(), 512u);
  EXPECT_EQ(arg.string->value.size(), 600u + 2u + 10u); // the folded value is not truncated
}

} // namespace
} // namespace kbaudit::py::testing

namespace kbaudit::py::testing {
namespace {

TEST(PythonOperators, MatmulOperatorIsRecordedWithItsFunction) {
  const PythonFacts f = analyze(src(R"(
import torch
def f(a, b, c):
    return a @ b @ c + 1
y = 2 * 3
)"));
  ASSERT_EQ(f.operators.size(), 2u);
  EXPECT_EQ(f.operators[0].op, "@");
  EXPECT_EQ(f.operators[0].text, "a @ b @ c");
  EXPECT_EQ(f.operators[0].function, "f");
  EXPECT_EQ(f.operators[0].lines, (LineRange{3, 3}));
  EXPECT_EQ(f.operators[1].text, "a @ b");
}

} // namespace
} // namespace kbaudit::py::testing
