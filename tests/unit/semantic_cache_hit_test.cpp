// The blocks of a cache test, which calls do work, and what the hit and miss paths do
// (semantic/branch_blocks.h, call_work.h, cache_hit.h): MEM001 asks whether a hit hands back
// stored state without recomputing and whether a miss only captures a graph.

#include "kbaudit/semantic/branch_blocks.h"
#include "kbaudit/semantic/cache_hit.h"
#include "kbaudit/semantic/call_work.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::branchAt;
using py::testing::src;

const std::string kCaches = src(R"PY(
import torch
class Positive:
    def forward(self, x):
        if x is self._last:
            return self._out
        self._last = x
        self._out = torch.relu(x)
        return self._out
class Negative:
    def forward(self, x):
        if x is not self._last:
            self._last = x
            self._out = torch.relu(x)
        return self._out
class Recomputes:
    def forward(self, x):
        if x is self._last:
            self._out = torch.relu(x)
            return self._out
        return x
class Graphs:
    def forward(self, x):
        if x is not self._last:
            self._build(x)
        else:
            y = x.view(-1)
        return self._out
    def _build(self, x):
        self._g = torch.cuda.CUDAGraph()
)PY");

TEST(SemanticBranchBlocks, BodyElseAndInline) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
def f(x):
    if x: return 1
    if x > 1:
        y = 2
    else:
        y = 3
    if x > 2:
        y = 4
    elif x > 3:
        y = 5
    return y
)PY")));
  const semantic::BranchBlocks inline_ = semantic::blocksOf(*branchAt(f.python, 2));
  EXPECT_TRUE(inline_.inlineBody);
  EXPECT_FALSE(inline_.orelse.valid());
  const semantic::BranchBlocks withElse = semantic::blocksOf(*branchAt(f.python, 3));
  EXPECT_FALSE(withElse.inlineBody);
  EXPECT_EQ(withElse.body.begin, 4u);
  EXPECT_EQ(withElse.orelse.begin, 6u);
  EXPECT_FALSE(semantic::blocksOf(*branchAt(f.python, 7)).orelse.valid()); // an elif is no else
  EXPECT_TRUE(semantic::within({5, 5}, {4, 6}));
  EXPECT_FALSE(semantic::within({7, 7}, {4, 6}));
  EXPECT_FALSE(semantic::within({0, 0}, {0, 0})); // no block
}

TEST(SemanticCallWork, InertCallsAndWorkOnLines) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kCaches));
  const py::Function *recomputes = f.python.findFunction("Recomputes.forward");
  ASSERT_NE(recomputes, nullptr);
  const std::vector<const py::Call *> calls = semantic::callsOn(f.python, "Recomputes.forward", {18, 19});
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0]->resolved, "torch.relu");
  EXPECT_FALSE(semantic::isInertCall(*calls[0]));
  EXPECT_TRUE(semantic::computesOn(f.python, *recomputes, {18, 19}, {17, 17}));
  EXPECT_FALSE(semantic::computesOn(f.python, *recomputes, {18, 19}, {18, 18})); // the test's own calls
  for (const py::Call &c : f.python.calls)
    if (c.method == "view")
      EXPECT_TRUE(semantic::isInertCall(c));
}

TEST(SemanticCacheHit, StoredHitsAndRecomputedOnes) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kCaches));
  const auto hit = [&](const char *fn, unsigned line, bool positive) {
    const py::Function *func = f.python.findFunction(fn);
    const py::Branch *b = branchAt(f.python, line);
    EXPECT_TRUE(func && b) << fn;
    return func && b ? semantic::storedHit(f.python, *func, *b, positive) : std::nullopt;
  };
  const std::optional<semantic::ReturnStatement> positive = hit("Positive.forward", 4, true);
  ASSERT_TRUE(positive.has_value());
  EXPECT_EQ(positive->lines.begin, 5u);
  const std::optional<semantic::ReturnStatement> negative = hit("Negative.forward", 11, false);
  ASSERT_TRUE(negative.has_value());
  EXPECT_EQ(negative->lines.begin, 14u); // after the refill block
  EXPECT_FALSE(hit("Recomputes.forward", 17, true).has_value()); // relu before the return
  EXPECT_FALSE(hit("Negative.forward", 11, true).has_value());   // read the wrong way round
}

TEST(SemanticCacheHit, MissThatCapturesAGraph) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kCaches));
  const py::Function *graphs = f.python.findFunction("Graphs.forward");
  const py::Function *negative = f.python.findFunction("Negative.forward");
  ASSERT_TRUE(graphs && negative);
  EXPECT_TRUE(semantic::capturesGraph(f.python, *graphs, {24, 24}));    // through self._build
  EXPECT_FALSE(semantic::capturesGraph(f.python, *graphs, {26, 26}));   // the view in the else
  EXPECT_FALSE(semantic::capturesGraph(f.python, *negative, {12, 13})); // a plain refill
}

} // namespace
} // namespace kbaudit
