// The names an expression reads come from its syntax tree: a rule asking "does this value read
// `x`" must not be answered by a string literal, a comment, a keyword's name, an attribute's name
// or a lambda's own parameter that happens to be spelled `x`.

#include "kbaudit/semantic/expr_query.h"
#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

using semantic::reads;

TEST(PythonExprNames, FreeNamesAndDottedChains) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x, k):
        v = self.cache.get(k) + x[0].view(-1)
        return v
)PY"));
  const Expr &v = valueOf(f, "v");
  for (const char *n : {"self", "self.cache", "self.cache.get", "k", "x"})
    EXPECT_TRUE(reads(v, n)) << n;
  EXPECT_FALSE(reads(v, "cache"));     // an attribute's name is not a free name
  EXPECT_FALSE(reads(v, "view"));
  EXPECT_FALSE(reads(v, "self.get"));  // not a chain the expression spells
  EXPECT_EQ(semantic::rootName(v), ""); // a binary operation has no chain root
  EXPECT_FALSE(v.namesTruncated);
}

TEST(PythonExprNames, LiteralsCommentsKeywordsAndOwnVariablesAreNotReads) {
  auto f = analyze(src(R"PY(
def forward(x, y):
    a = torch.ones(3, out=y, name="x")  # x
    b = (lambda x: x + 1)(y)
    c = [x for x in y if x]
    d = f"{y}x"
    e = [q for q in x]
    return a
)PY"));
  EXPECT_FALSE(reads(valueOf(f, "a"), "x"));
  EXPECT_FALSE(reads(valueOf(f, "a"), "out"));
  EXPECT_TRUE(reads(valueOf(f, "a"), "y"));
  EXPECT_TRUE(reads(valueOf(f, "a"), "torch.ones"));
  EXPECT_EQ(semantic::rootName(valueOf(f, "a")), "torch");
  EXPECT_FALSE(reads(valueOf(f, "b"), "x")); // the lambda's parameter
  EXPECT_TRUE(reads(valueOf(f, "b"), "y"));
  EXPECT_FALSE(reads(valueOf(f, "c"), "x")); // the comprehension's variable
  EXPECT_TRUE(reads(valueOf(f, "c"), "y"));
  EXPECT_TRUE(reads(valueOf(f, "d"), "y"));  // an f-string's interpolation reads
  EXPECT_FALSE(reads(valueOf(f, "d"), "x")); // its literal text does not
  EXPECT_TRUE(reads(valueOf(f, "e"), "x"));  // the first iterable is read outside
  EXPECT_FALSE(reads(valueOf(f, "e"), "q"));
}

TEST(PythonExprNames, ALambdaDefaultIsReadOutsideItsScope) {
  auto f = analyze(src(R"PY(
g = lambda x, s=scale: x * s
)PY"));
  EXPECT_TRUE(reads(valueOf(f, "g"), "scale"));
  EXPECT_FALSE(reads(valueOf(f, "g"), "x"));
  EXPECT_FALSE(reads(valueOf(f, "g"), "s"));
}

TEST(PythonExprNames, AChainWrittenWithSpacesOrAcrossLinesReadsAsSpelled) {
  // Most chains are slices of the source; these are not, and must still read as `a.b.c`.
  auto f = analyze(src(R"PY(
def forward(a, k):
    v = (a . b
         .c)(k) + a.b.c
    return v
)PY"));
  const Expr &v = valueOf(f, "v");
  EXPECT_EQ(v.names, (std::vector<std::string>{"a", "a.b", "a.b.c", "k"})); // once each, in order
  EXPECT_FALSE(reads(v, "a . b"));
}

TEST(PythonExprNames, RootAndBareNames) {
  auto f = analyze(src(R"PY(
def forward(x):
    a = x
    b = (x)
    c = x[0].view(-1)
    d = x.t()
    return a
)PY"));
  EXPECT_TRUE(semantic::isName(valueOf(f, "a"), "x"));
  EXPECT_TRUE(semantic::isName(valueOf(f, "b"), "x"));
  EXPECT_FALSE(semantic::isName(valueOf(f, "c"), "x"));
  EXPECT_EQ(semantic::rootName(valueOf(f, "c")), "x");
  EXPECT_EQ(semantic::rootName(valueOf(f, "d")), "x");
}

TEST(PythonExprNames, AHugeExpressionSaysItsListIsAPrefix) {
  // 1100 distinct names, more than the walk lists.
  std::string code = "v = [";
  for (int i = 0; i < 1100; ++i)
    code += "n" + std::to_string(i) + ", ";
  code += "zlast]\n";
  auto f = analyze(code);
  const Expr &v = valueOf(f, "v");
  EXPECT_TRUE(v.namesTruncated);
  EXPECT_TRUE(reads(v, "n0"));
  EXPECT_TRUE(reads(v, "n1000")); // within the budget of 1024 names
  EXPECT_FALSE(reads(v, "absent"));
  // A name past the budget may be unlisted: the flag, not the list, tells a rule it was not seen.
  EXPECT_EQ(v.names.size(), 1024u);
}

TEST(PythonExprNames, QuoteIsOneLineAndBounded) {
  auto f = analyze(src(R"PY(
v = torch.cat([a,
               b],
              dim=0)
)PY"));
  EXPECT_EQ(semantic::quote(valueOf(f, "v")), "torch.cat([a, b], dim=0)");
  EXPECT_EQ(semantic::quote(valueOf(f, "v"), 9), "torch.cat...");
}

} // namespace
} // namespace kbaudit::py::testing
