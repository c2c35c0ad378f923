// The questions RUB rules ask of one expression (semantic/expr_reads.h, exact_size_test.h) and
// of the names they follow (semantic/scoped_names.h): each answer comes from the expression's
// names and root, so a string literal or comment that spells a name never answers it.

#include "kbaudit/semantic/exact_size_test.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/random_draws.h"
#include "kbaudit/semantic/scoped_names.h"
#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

TEST(SemanticExprReads, DottedNameIsAPlainChainOnly) {
  auto f = analyze(src(R"PY(
def forward(self, x):
    a = x
    b = self.saved
    c = f().x
    d = x[0]
    e = "x"
    return a
)PY"));
  EXPECT_EQ(semantic::dottedName(valueOf(f, "a")), "x");
  EXPECT_EQ(semantic::dottedName(valueOf(f, "b")), "self.saved");
  EXPECT_EQ(semantic::dottedName(valueOf(f, "c")), "");
  EXPECT_EQ(semantic::dottedName(valueOf(f, "d")), "");
  EXPECT_EQ(semantic::dottedName(valueOf(f, "e")), "");
}

TEST(SemanticExprReads, SegmentIsReadAsANameNotSpelledInAString) {
  auto f = analyze(src(R"PY(
import mmap
a = mmap.PROT_READ | mmap.PROT_WRITE
b = PROT_WRITE
c = mmap.PROT_READ  # PROT_WRITE later
d = "PROT_WRITE"
)PY"));
  EXPECT_TRUE(semantic::readsSegment(valueOf(f, "a"), "PROT_WRITE"));
  EXPECT_TRUE(semantic::readsSegment(valueOf(f, "b"), "PROT_WRITE"));
  EXPECT_FALSE(semantic::readsSegment(valueOf(f, "c"), "PROT_WRITE"));
  EXPECT_FALSE(semantic::readsSegment(valueOf(f, "d"), "PROT_WRITE"));
}

TEST(SemanticExprReads, StorageRootKeepsTheSelfAttribute) {
  auto f = analyze(src(R"PY(
def forward(self, x):
    a = self.cache[self.idx].data
    b = x.view(-1)[0]
    c = f()
    return a
)PY"));
  EXPECT_EQ(semantic::storageRoot(valueOf(f, "a")), "self.cache");
  EXPECT_EQ(semantic::storageRoot(valueOf(f, "b")), "x");
  EXPECT_EQ(semantic::storageRoot(valueOf(f, "c")), "");
  EXPECT_EQ(semantic::storageRoot(std::string_view("self.cache[\"k\"].data")), "self.cache");
  EXPECT_EQ(semantic::storageRoot(std::string_view("frame.f_back")), "frame");
  EXPECT_EQ(semantic::storageRoot(std::string_view("make().x")), "");
}

TEST(SemanticExprReads, ViewOfAParameter) {
  auto f = analyze(src(R"PY(
def forward(x, xs):
    a = x[0].view(-1).t()
    b = x.sum()
    c = xs
    d = torch.randn(x.shape)
    return a
)PY"));
  EXPECT_TRUE(semantic::isViewOf(valueOf(f, "a"), "x"));
  EXPECT_FALSE(semantic::isViewOf(valueOf(f, "b"), "x")); // a reduction is a new value
  EXPECT_FALSE(semantic::isViewOf(valueOf(f, "c"), "x"));
  EXPECT_FALSE(semantic::isViewOf(valueOf(f, "d"), "x")); // shaped like it, not it
}

TEST(SemanticExprReads, ViewChainsFromStructure) {
  for (const char *item : {"x", " x ", "x.view(-1)", "x[..., :n]", "x.t()", "x.T", "x.contiguous().view(b, -1)",
                           "x[0].detach()", "x.reshape(f(a), (b))", "x.data",
                           // layout the written form hid: a space before the dot, a line break, parentheses
                           "x .T", "x.view(\n    -1)", "(x).t()", "(x.view(-1))[0]"})
    EXPECT_TRUE(semantic::isViewOf(exprOf(item), "x")) << item;
  for (const char *item : {"y", "xs", "x + 1", "x.clone()", "x.float()", "x.view(-1) * 2", "x[0", "x.view(-1",
                           "f(x)", "self.x", "", "x()", "x.view(-1)(2)", "x.clone()  # x.view(-1)"})
    EXPECT_FALSE(semantic::isViewOf(exprOf(item), "x")) << item;
  EXPECT_FALSE(semantic::isViewOf(exprOf("x"), "")); // no parameter, no view
}

TEST(SemanticExprReads, ConstantWindowRoot) {
  auto f = analyze(src(R"PY(
def forward(x, n):
    a = x.flatten()[:8192].abs()
    b = x[::97]
    c = x[:n]
    d = x[0:0]
    e = x[0]
    return a
)PY"));
  EXPECT_EQ(semantic::constantWindowRoot(valueOf(f, "a")), "x");
  EXPECT_EQ(semantic::constantWindowRoot(valueOf(f, "b")), "x");
  EXPECT_EQ(semantic::constantWindowRoot(valueOf(f, "c")), ""); // a variable bound is no fixed sample
  EXPECT_EQ(semantic::constantWindowRoot(valueOf(f, "d")), ""); // nothing non-zero
  EXPECT_EQ(semantic::constantWindowRoot(valueOf(f, "e")), ""); // an index, not a window
  EXPECT_EQ(semantic::constantWindowRoot(std::string_view("x[:256].abs().max")), "x");
  EXPECT_EQ(semantic::constantWindowRoot(std::string_view("x.abs().max")), "");
}

TEST(SemanticExprReads, StepsFromItselfAndConstantsOnly) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        self.calls = self.calls + 1
        self.ema = self.ema * 0.9 + x
        n = n * 2
        return x
)PY"));
  EXPECT_TRUE(semantic::stepsFrom(valueOf(f, "self.calls"), "self.calls"));
  EXPECT_FALSE(semantic::stepsFrom(valueOf(f, "self.ema"), "self.ema")); // follows the input
  EXPECT_TRUE(semantic::stepsFrom(valueOf(f, "n"), "n"));
}

TEST(SemanticExprReads, CommandWordsComeFromFoldedStrings) {
  auto f = analyze(src(R"PY(
a = "rm " + path
b = ["sed", "-i", "s/x/y/", target]
c = rm_flag
)PY"));
  EXPECT_EQ(semantic::commandWords(valueOf(f, "a")), "rm ");
  EXPECT_EQ(semantic::commandWords(valueOf(f, "b")), "sed -i s/x/y/");
  EXPECT_EQ(semantic::commandWords(valueOf(f, "c")), ""); // a name is no command word
}

TEST(SemanticExprReads, ShapeKeyedTensorTableNeedsTheCallNotItsSpelling) {
  auto f = analyze(src(R"PY(
import torch
a = {(1024, 4096): torch.tensor([1.0])}
b = {(1024, 4096): "torch.tensor("}
c = {1024: torch.tensor([1.0])}
)PY"));
  EXPECT_TRUE(semantic::shapeKeyedTensorTable(valueOf(f, "a")));
  EXPECT_FALSE(semantic::shapeKeyedTensorTable(valueOf(f, "b")));
  EXPECT_FALSE(semantic::shapeKeyedTensorTable(valueOf(f, "c")));
}

TEST(SemanticExactSizeTest, ClausesSubjectsAndShape) {
  auto f = analyze(src(R"PY(
def forward(x, M, N):
    a = (M, N) == (4096, 4096) and x.shape[0] in (8192, 16384)
    b = M == 128
    c = M % 4096 == 0
    d = "M == 4096"
    return a
)PY"));
  const auto tests = semantic::exactSizeTests(valueOf(f, "a"));
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].items, (std::vector<std::string>{"M", "N"}));
  EXPECT_FALSE(tests[0].subjectReadsShape);
  EXPECT_EQ(tests[1].subject, "x.shape[0]");
  EXPECT_TRUE(tests[1].subjectReadsShape);
  EXPECT_TRUE(semantic::exactSizeTests(valueOf(f, "b")).empty()); // a head dim, not a problem size
  EXPECT_TRUE(semantic::exactSizeTests(valueOf(f, "c")).empty()); // alignment arithmetic
  EXPECT_TRUE(semantic::exactSizeTests(valueOf(f, "d")).empty()); // a string is no test
}

TEST(SemanticExactSizeTest, ReadsShapeFromNames) {
  auto f = analyze(src(R"PY(
def forward(x, size):
    a = x.shape[0]
    b = len(x)
    c = size
    d = "x.shape"
    return a
)PY"));
  EXPECT_TRUE(semantic::readsShape(valueOf(f, "a")));
  EXPECT_TRUE(semantic::readsShape(valueOf(f, "b")));
  EXPECT_FALSE(semantic::readsShape(valueOf(f, "c"))); // a parameter named size is no shape read
  EXPECT_FALSE(semantic::readsShape(valueOf(f, "d")));
}

TEST(SemanticScopedNames, VisibilityAndReads) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        a = self.flag + flagged
        b = "flag"  # flag
        return a
)PY"));
  semantic::ScopedNames<int> names;
  EXPECT_TRUE(names.bind("M.setup", "self.flag", 1));
  EXPECT_FALSE(names.bind("M.other", "self.flag", 2)); // one attribute per class
  EXPECT_TRUE(names.bind("helper", "flag", 3));
  EXPECT_TRUE(names.bind("", "glob", 4));
  const auto *hit = names.readBy("M.forward", valueOf(f, "a"));
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->first.second, "self.flag");
  EXPECT_EQ(hit->second, 1);
  EXPECT_EQ(names.readBy("M.forward", valueOf(f, "b")), nullptr); // spelled, not read
  EXPECT_EQ(names.find("M.forward", "flag"), nullptr);            // another function's local
  ASSERT_NE(names.find("helper.inner", "flag"), nullptr);         // seen from a nested def
  ASSERT_NE(names.find("anything", "glob"), nullptr);             // a module global
  EXPECT_EQ(names.find("N.forward", "self.flag"), nullptr);       // another class's attribute
  const auto *among = names.readAmong("M.forward", {"self.flag.item"});
  ASSERT_NE(among, nullptr);
  EXPECT_EQ(among->second, 1);
  EXPECT_NE(names.mentionedIn("M.forward", "(self.flag == x)"), nullptr);
}

TEST(SemanticRandomDraws, DrawsReseedsAndFactories) {
  auto f = analyze(src(R"PY(
import torch
import numpy as np
torch.manual_seed(0)
a = torch.randn(4)
b = np.random.rand(3)
c = np.random.get_state()
w.normal_()
d = torch.ones(4)
)PY"));
  EXPECT_TRUE(semantic::isGlobalReseed("torch.manual_seed"));
  EXPECT_TRUE(semantic::isRngRestore("torch.random.fork_rng"));
  EXPECT_FALSE(semantic::isGlobalReseed("torch.randn"));
  EXPECT_TRUE(semantic::isRandomDraw(*callTo(f, "torch.randn")));
  EXPECT_TRUE(semantic::isRandomDraw(*callTo(f, "numpy.random.rand")));
  EXPECT_FALSE(semantic::isRandomDraw(*callTo(f, "numpy.random.get_state"))); // reads the state, draws nothing
  EXPECT_FALSE(semantic::isRandomDraw(*callTo(f, "torch.manual_seed")));
  EXPECT_FALSE(semantic::isRandomDraw(*callTo(f, "torch.ones")));
  EXPECT_TRUE(semantic::isRandomFactory("torch.empty_like"));
  EXPECT_TRUE(semantic::isRandomFactory("torch.nn.init.kaiming_uniform_"));
  EXPECT_FALSE(semantic::isRandomFactory("torch.zeros"));
}

} // namespace
} // namespace kbaudit::py::testing
