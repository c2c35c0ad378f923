// The semantic layer's structural questions about one expression (kbaudit/semantic/expr_structure.h)
// and the quotes of facts that carry only a spelling (kbaudit/semantic/fact_quote.h): what a
// value reads a member of, which name's data it is, which call fact a call expression is. Each
// is answered from the syntax tree's names, so a string literal, a comment or a keyword's name
// spelled like the member does not count.

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/fact_quote.h"
#include "kbaudit/semantic/int4_unpack.h"
#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

TEST(SemanticExprStructure, ReadsMemberBareOrDottedButNotInLiterals) {
  auto f = analyze(src(R"PY(
import torch
from torch.cuda import current_stream
def forward(x):
    a = torch.cuda.current_stream()
    b = current_stream()
    c = "current_stream"  # current_stream
    d = torch.empty(1, current_stream=None)
    return a
)PY"));
  EXPECT_TRUE(semantic::readsMember(valueOf(f, "a"), "current_stream"));
  EXPECT_TRUE(semantic::readsMember(valueOf(f, "b"), "current_stream"));
  EXPECT_FALSE(semantic::readsMember(valueOf(f, "c"), "current_stream")); // a literal and a comment
  EXPECT_FALSE(semantic::readsMember(valueOf(f, "d"), "current_stream")); // a keyword's name
  EXPECT_FALSE(semantic::readsMember(valueOf(f, "a"), "stream"));         // whole segments only
}

TEST(SemanticExprStructure, ReadsAttributeNeedsADot) {
  auto f = analyze(src(R"PY(
def forward(x, size):
    a = x.size(0) * 2
    b = size * 2
    c = (x.data_ptr(), x.shape[0])
    d = "x.shape"
    return a
)PY"));
  EXPECT_TRUE(semantic::readsAttribute(valueOf(f, "a"), "size"));
  EXPECT_FALSE(semantic::readsAttribute(valueOf(f, "b"), "size")); // a local named `size`
  EXPECT_TRUE(semantic::readsAttribute(valueOf(f, "c"), "data_ptr"));
  EXPECT_TRUE(semantic::readsAttribute(valueOf(f, "c"), "shape"));
  EXPECT_FALSE(semantic::readsAttribute(valueOf(f, "d"), "shape"));
}

TEST(SemanticExprStructure, ReadsShapeFromSizePropertiesNotTheirNames) {
  auto f = analyze(src(R"PY(
def forward(x, xs, size):
    a, b = x.shape
    c = len(xs)
    d = x.size(0) // 2
    e = size + 1
    g = "x.shape"
    return a
)PY"));
  EXPECT_TRUE(semantic::readsShape(valueOf(f, "a")));
  EXPECT_TRUE(semantic::readsShape(valueOf(f, "c")));
  EXPECT_TRUE(semantic::readsShape(valueOf(f, "d")));
  EXPECT_FALSE(semantic::readsShape(valueOf(f, "e"))); // a parameter named `size`
  EXPECT_FALSE(semantic::readsShape(valueOf(f, "g"))); // a string
}

TEST(SemanticExprStructure, SameDataRootThroughViewsOnly) {
  auto f = analyze(src(R"PY(
import torch
def forward(self, x, n):
    a = x
    b = self.lin.weight.data
    c = x.view(-1).float().contiguous()
    d = x.abs().contiguous()
    e = torch.arange(n)
    f = x[0]
    g = (idx < n)
    h = x + 1
    return a
)PY"));
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "a")), "x");
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "b")), "self");
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "c")), "x");
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "d")), ""); // abs computes a new value
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "e")), "");
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "f")), ""); // a subscript selects part of it
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "g")), "");
  EXPECT_EQ(semantic::sameDataRoot(valueOf(f, "h")), "");
}

TEST(SemanticExprStructure, AttributeOwner) {
  auto f = analyze(src(R"PY(
def forward(self, s):
    a = s.cuda_stream
    b = self.side.cuda_stream
    c = s.cuda_stream_x
    d = get().cuda_stream
    return a
)PY"));
  EXPECT_EQ(semantic::attributeOwner(valueOf(f, "a"), "cuda_stream"), std::optional<std::string>("s"));
  EXPECT_EQ(semantic::attributeOwner(valueOf(f, "b"), "cuda_stream"), std::optional<std::string>("self.side"));
  EXPECT_FALSE(semantic::attributeOwner(valueOf(f, "c"), "cuda_stream"));
  EXPECT_FALSE(semantic::attributeOwner(valueOf(f, "d"), "cuda_stream")); // no plain owner
}

TEST(SemanticExprStructure, CallOfFindsTheArgumentsOfACallValue) {
  auto f = analyze(src(R"PY(
import functools
def run(fn):
    p = functools.partial(_work, 3)
    q = 7
    return p
)PY"));
  const Call *c = semantic::callOf(f, valueOf(f, "p"), "run");
  ASSERT_NE(c, nullptr);
  ASSERT_NE(c->positionalArg(0), nullptr);
  EXPECT_TRUE(semantic::isName(c->positionalArg(0)->value, "_work"));
  EXPECT_EQ(semantic::callOf(f, valueOf(f, "p"), "other"), nullptr); // another function's call
  EXPECT_EQ(semantic::callOf(f, valueOf(f, "q"), "run"), nullptr);
}

TEST(SemanticExprStructure, HoldsCallByCalleeOrThroughItsChain) {
  auto f = analyze(src(R"PY(
import torch
def forward(q, k, B, T):
    a = torch.mm(q.half(), k)
    b = q.view(B, T).half().contiguous()
    c = torch.mm(k, k)  # q.half()
    return a
)PY"));
  const Call *half = nullptr, *viewHalf = nullptr;
  for (const Call &c : f.calls) {
    if (c.callee == "q.half")
      half = &c;
    if (c.method == "half" && c.callee != "q.half")
      viewHalf = &c;
  }
  ASSERT_NE(half, nullptr);
  ASSERT_NE(viewHalf, nullptr);
  EXPECT_TRUE(semantic::holdsCall(valueOf(f, "a"), *half));
  EXPECT_FALSE(semantic::holdsCall(valueOf(f, "c"), *half)); // named in a comment only
  EXPECT_TRUE(semantic::holdsCall(valueOf(f, "b"), *viewHalf));
  EXPECT_FALSE(semantic::holdsCall(valueOf(f, "a"), *viewHalf)); // starts elsewhere
}

TEST(SemanticExprStructure, ComprehensionsAndGeneratorsButNotCalls) {
  auto f = analyze(src(R"PY(
def forward(xs):
    a = [v * 2 for v in xs]
    b = {k: 1 for k in xs}
    c = (v for v in xs)
    d = sum(v for v in xs)
    return a
)PY"));
  EXPECT_TRUE(semantic::isComprehension(f, valueOf(f, "a"), "forward"));
  EXPECT_TRUE(semantic::isComprehension(f, valueOf(f, "b"), "forward"));
  EXPECT_TRUE(semantic::isComprehension(f, valueOf(f, "c"), "forward"));
  EXPECT_FALSE(semantic::isComprehension(f, valueOf(f, "d"), "forward"));
}

TEST(SemanticExprStructure, IdentityChecksLeaveOutNone) {
  // TIME004 counts every identity check as an input key: one against None is none.
  auto f = analyze(src(R"PY(
def forward(self, x):
    if self.cache is None:
        pass
    if None is not self.cache:
        pass
    if self.key is x:
        pass
    return x
)PY"));
  ASSERT_EQ(f.identityChecks.size(), 1u);
  EXPECT_EQ(f.identityChecks[0].lines.begin, 6u);
}

TEST(SemanticExprStructure, UnpackingFromNamesNotLiterals) {
  auto f = analyze(src(R"PY(
import torch
def load(w):
    a = torch.bitwise_and(w, 15)
    b = (w >> 4) & 0xF
    c = "bitwise_and lop3"
    d = w * 4
    e = "unsigned lo = (w >> 4) & 0xF;"
    return a
)PY"));
  EXPECT_TRUE(semantic::unpacksNibbles(valueOf(f, "a")));
  EXPECT_TRUE(semantic::unpacksNibbles(valueOf(f, "b")));
  EXPECT_FALSE(semantic::unpacksNibbles(valueOf(f, "c"))); // named in a string only
  EXPECT_FALSE(semantic::unpacksNibbles(valueOf(f, "d")));
  EXPECT_FALSE(semantic::unpacksNibbles(valueOf(f, "e"))); // a C++ source held in a string
}

TEST(SemanticFactQuote, PtxFromOpcodeAndModifiersAndSpellingsCollapsed) {
  cxx::PtxInstruction p;
  p.opcode = "mma";
  p.modifiers = {"sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32"};
  EXPECT_EQ(semantic::quote(p), "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  triton::DotArg a;
  a.text = "  \"tf32\"\n";
  EXPECT_EQ(semantic::quote(a), "\"tf32\"");
  py::Decorator d;
  d.text = "triton.autotune(configs=[\n    c1,\n    c2])";
  EXPECT_EQ(semantic::quote(d), "triton.autotune(configs=[ c1, c2])");
}

} // namespace
} // namespace kbaudit::py::testing
