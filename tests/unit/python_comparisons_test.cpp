// A branch test's comparisons as the front end reads them off the syntax tree: through `and`,
// `or`, `not`, parentheses and a walrus, chained comparisons in pairs, operators spelled in
// strings or comments ignored, each side summarised with the calls inside it, and a test too
// large for the walk marked truncated rather than cut short in silence. Also the chain of
// links an expression is (Expr::chain).

#include "python_test_support.h"

#include <algorithm>
#include <string>

namespace kbaudit::py::testing {
namespace {

const Branch &onlyBranch(const PythonFacts &f, unsigned line) {
  const Branch *b = branchAt(f, line);
  EXPECT_NE(b, nullptr) << line;
  static const Branch none;
  return b ? *b : none;
}

TEST(PythonComparisons, ThroughAndOrNotInSourceOrder) {
  auto f = analyze(src(R"PY(
def forward(self, x, k, y):
    if not (x is self._last) or k not in self.cache and id(y) == self._id:
        return 1
)PY"));
  const Branch &b = onlyBranch(f, 2);
  ASSERT_EQ(b.comparisons.size(), 3u);
  EXPECT_FALSE(b.comparisonsTruncated);
  EXPECT_EQ(b.comparisons[0].op, "is");
  EXPECT_TRUE(b.comparisons[0].underNot);
  EXPECT_EQ(b.comparisons[0].left.value.text, "x");
  EXPECT_EQ(b.comparisons[0].right.value.text, "self._last");
  EXPECT_EQ(b.comparisons[1].op, "not in");
  EXPECT_FALSE(b.comparisons[1].underNot);
  EXPECT_EQ(b.comparisons[2].op, "==");
  EXPECT_EQ(b.comparisons[2].left.value.kind, ExprKind::Call);
  EXPECT_EQ(b.comparisons[2].lines, (LineRange{2, 2}));
  // The whole test is summarised too.
  EXPECT_EQ(b.test.kind, ExprKind::BoolOp);
  EXPECT_NE(std::find(b.test.names.begin(), b.test.names.end(), "self.cache"), b.test.names.end());
}

TEST(PythonComparisons, DoubleNegationCancels) {
  auto f = analyze("if not (not a == b):\n    pass\n");
  const Branch &b = onlyBranch(f, 1);
  ASSERT_EQ(b.comparisons.size(), 1u);
  EXPECT_FALSE(b.comparisons[0].underNot);
}

TEST(PythonComparisons, ChainedComparisonsComeInPairs) {
  auto f = analyze("if a < b <= c:\n    pass\n");
  const Branch &b = onlyBranch(f, 1);
  ASSERT_EQ(b.comparisons.size(), 2u);
  EXPECT_EQ(b.comparisons[0].op, "<");
  EXPECT_EQ(b.comparisons[0].left.value.text, "a");
  EXPECT_EQ(b.comparisons[0].right.value.text, "b");
  EXPECT_EQ(b.comparisons[1].op, "<=");
  EXPECT_EQ(b.comparisons[1].left.value.text, "b");
  EXPECT_EQ(b.comparisons[1].right.value.text, "c");
}

TEST(PythonComparisons, OperatorsInStringsAndCommentsAreNotComparisons) {
  auto f = analyze(src(R"PY(
if (mode == "a is b or c == d"  # x is y and p in q
    and (flag)):
    pass
)PY"));
  const Branch &b = onlyBranch(f, 1);
  ASSERT_EQ(b.comparisons.size(), 1u);
  EXPECT_EQ(b.comparisons[0].op, "==");
  EXPECT_EQ(b.comparisons[0].left.value.text, "mode");
  EXPECT_EQ(b.comparisons[0].right.value.kind, ExprKind::String);
  EXPECT_TRUE(b.comparisons[0].right.value.names.empty());
}

TEST(PythonComparisons, CommentsAndLineBreaksBetweenOperands) {
  auto f = analyze(src(R"PY(
if (x  # the input
        is not  # still the operator
        self._x):
    pass
)PY"));
  const Branch &b = onlyBranch(f, 1);
  ASSERT_EQ(b.comparisons.size(), 1u);
  EXPECT_EQ(b.comparisons[0].op, "is not");
  EXPECT_EQ(b.comparisons[0].left.value.text, "x");
  EXPECT_EQ(b.comparisons[0].right.value.text, "self._x");
}

TEST(PythonComparisons, WalrusTestsWhatItBinds) {
  auto f = analyze(src(R"PY(
if (hit := x is self._x):
    pass
if (k := key(x)) in cache:
    pass
)PY"));
  ASSERT_EQ(onlyBranch(f, 1).comparisons.size(), 1u);
  EXPECT_EQ(onlyBranch(f, 1).comparisons[0].op, "is");
  EXPECT_EQ(onlyBranch(f, 1).comparisons[0].left.value.text, "x");
  const Branch &b = onlyBranch(f, 3);
  ASSERT_EQ(b.comparisons.size(), 1u);
  EXPECT_EQ(b.comparisons[0].op, "in");
  ASSERT_EQ(b.comparisons[0].left.calls.size(), 1u);
  EXPECT_EQ(b.comparisons[0].left.calls[0].callee, "key");
  EXPECT_NE(std::find(b.comparisons[0].left.value.names.begin(), b.comparisons[0].left.value.names.end(), "x"),
            b.comparisons[0].left.value.names.end());
}

TEST(PythonComparisons, CallsInsideOperandsAreResolvedAndFolded) {
  auto f = analyze(src(R"PY(
import torch as T
NAME = "_probe"
def forward(self, x):
    if T.equal(x[0, :16].float(), getattr(self, NAME)) == True:
        return 1
)PY"));
  const Branch &b = onlyBranch(f, 4);
  ASSERT_EQ(b.comparisons.size(), 1u);
  const Operand &left = b.comparisons[0].left;
  ASSERT_EQ(left.calls.size(), 3u); // T.equal, .float(), getattr, in the walk's order
  EXPECT_EQ(left.calls[0].resolved, "torch.equal");
  EXPECT_EQ(left.value.resolved, "torch.equal");
  const Call *get = nullptr;
  for (const Call &c : left.calls)
    if (c.callee == "getattr")
      get = &c;
  ASSERT_NE(get, nullptr);
  ASSERT_NE(get->positionalArg(1), nullptr);
  ASSERT_TRUE(get->positionalArg(1)->value.string.has_value());
  EXPECT_EQ(get->positionalArg(1)->value.string->value, "_probe"); // folded through the module constant
  EXPECT_TRUE(b.comparisons[0].right.calls.empty());
  EXPECT_EQ(b.comparisons[0].right.value.kind, ExprKind::Bool);
}

TEST(PythonComparisons, DelegatedBodiesKeepOneCopyOfEachCall) {
  // forward's facts are read from _impl's body under forward's name: each branch's operand holds
  // the calls of its own function only.
  auto f = analyze(src(R"PY(
def _impl(self, x):
    if id(x) == self._id:
        return 1
    return 2

class M:
    def forward(self, x):
        return _impl(self, x)
)PY"));
  unsigned seen = 0;
  for (const Branch &b : f.branches) {
    if (b.lines.begin != 2)
      continue;
    ++seen;
    ASSERT_EQ(b.comparisons.size(), 1u) << b.function;
    ASSERT_EQ(b.comparisons[0].left.calls.size(), 1u) << b.function;
    EXPECT_EQ(b.comparisons[0].left.calls[0].function, b.function);
  }
  EXPECT_EQ(seen, 2u);
}

TEST(PythonComparisons, OnlyTheTestsOwnComparisons) {
  auto f = analyze(src(R"PY(
if f(a == b) or any(t is s for t in ts) or (p + (q == r)):
    pass
y = u if k in d else v
while n != 0:
    n -= 1
assert x is not None, "x == y"
)PY"));
  EXPECT_TRUE(onlyBranch(f, 1).comparisons.empty());
  EXPECT_FALSE(onlyBranch(f, 1).comparisonsTruncated);
  ASSERT_EQ(onlyBranch(f, 3).comparisons.size(), 1u);
  EXPECT_EQ(onlyBranch(f, 3).comparisons[0].op, "in");
  ASSERT_EQ(onlyBranch(f, 4).comparisons.size(), 1u);
  EXPECT_EQ(onlyBranch(f, 4).comparisons[0].op, "!=");
  ASSERT_EQ(onlyBranch(f, 6).comparisons.size(), 1u);
  EXPECT_EQ(onlyBranch(f, 6).comparisons[0].op, "is not");
}

TEST(PythonComparisons, TooManyComparisonsAreMarkedTruncated) {
  std::string test;
  for (int i = 0; i < 400; ++i)
    test += (i ? " and a" : "a") + std::to_string(i) + " == b";
  auto f = analyze("if " + test + ":\n    pass\n");
  const Branch &b = onlyBranch(f, 1);
  EXPECT_TRUE(b.comparisonsTruncated);
  ASSERT_FALSE(b.comparisons.empty()); // a prefix is kept, in order
  EXPECT_EQ(b.comparisons[0].left.value.text, "a0");
  EXPECT_EQ(b.comparisons[1].left.value.text, "a1");
}

TEST(PythonComparisons, DeepNegationIsMarkedTruncated) {
  std::string test;
  for (int i = 0; i < 5000; ++i)
    test += "not ";
  auto f = analyze("if " + test + "x is y:\n    pass\n");
  const Branch &b = onlyBranch(f, 1);
  EXPECT_TRUE(b.comparisonsTruncated);
  EXPECT_TRUE(b.comparisons.empty());
}

TEST(PythonComparisons, ShortTestsAreNotTruncated) {
  auto f = analyze("if x is y and not (a in b):\n    pass\n");
  EXPECT_FALSE(onlyBranch(f, 1).comparisonsTruncated);
  EXPECT_EQ(onlyBranch(f, 1).comparisons.size(), 2u);
}

TEST(PythonExprChain, LinksFromTheRootOutwards) {
  using L = ChainLink::Kind;
  auto f = analyze(src(R"PY(
a = x.view(-1)[..., :n].t()
b = (x).T
c = "sep".join(xs)
d = x
e = torch.abs(x)[0]
)PY"));
  const Expr &a = valueOf(f, "a");
  EXPECT_EQ(a.root, "x");
  ASSERT_EQ(a.chain.size(), 5u);
  EXPECT_EQ(a.chain[0].kind, L::Attribute);
  EXPECT_EQ(a.chain[0].name, "view");
  EXPECT_EQ(a.chain[1].kind, L::Call);
  EXPECT_EQ(a.chain[2].kind, L::Subscript);
  EXPECT_EQ(a.chain[3].kind, L::Attribute);
  EXPECT_EQ(a.chain[3].name, "t");
  EXPECT_EQ(a.chain[4].kind, L::Call);
  const Expr &b = valueOf(f, "b");
  EXPECT_EQ(b.root, "x");
  ASSERT_EQ(b.chain.size(), 1u);
  EXPECT_EQ(b.chain[0].name, "T");
  EXPECT_TRUE(valueOf(f, "c").root.empty());
  EXPECT_TRUE(valueOf(f, "c").chain.empty());
  EXPECT_TRUE(valueOf(f, "d").chain.empty());
  const Expr &e = valueOf(f, "e");
  EXPECT_EQ(e.root, "torch");
  ASSERT_EQ(e.chain.size(), 3u);
  EXPECT_EQ(e.chain[2].kind, L::Subscript);
}

} // namespace
} // namespace kbaudit::py::testing
