// Counters of the graded calls (semantic/call_counters.h): RUB004 asks which names count
// forward's calls and whether a branch compares one with a warm-up threshold.

#include "kbaudit/semantic/call_counters.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::branchAt;
using py::testing::src;

TEST(SemanticCallCounters, CountersAndThresholds) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
_CALLS = 0
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.warmup = 3
        self.built = 0
        self.built += 1
    def forward(self, x):
        global _CALLS
        self.calls += 1
        _CALLS = _CALLS + 1
        if self.calls > 3:
            return x
        if self.calls >= self.warmup:
            return x
        if self.calls == self.stamp:
            return x
        if not _CALLS:
            return x
        return x * 2
)PY")));
  const semantic::scope::GradedScope graded(f);
  const std::vector<semantic::CallCounter> counters = semantic::perCallCounters(f, graded);
  ASSERT_EQ(counters.size(), 2u); // the bump in __init__ counts nothing per call
  EXPECT_EQ(counters[0].name, "self.calls");
  EXPECT_EQ(counters[0].owner, "ModelNew");
  EXPECT_EQ(counters[0].increment.begin, 12u);
  EXPECT_EQ(counters[1].name, "_CALLS");
  EXPECT_EQ(counters[1].owner, "");
  const auto threshold = [&](unsigned line) {
    const py::Branch *b = branchAt(f.python, line);
    EXPECT_NE(b, nullptr) << line;
    const semantic::CallCounter *c = b ? semantic::counterIn(*b, counters) : nullptr;
    return c && semantic::isThreshold(f.python, *b, *c);
  };
  EXPECT_TRUE(threshold(14));  // a literal
  EXPECT_TRUE(threshold(16));  // a name bound to a number
  EXPECT_FALSE(threshold(18)); // a stamp compared with stored state
  EXPECT_TRUE(threshold(20));  // tested for zero
  EXPECT_TRUE(semantic::isIncrement(*py::testing::assignmentTo(f.python, "_CALLS", 1)));
  EXPECT_FALSE(semantic::isIncrement(*py::testing::assignmentTo(f.python, "_CALLS", 0)));
}

} // namespace
} // namespace kbaudit
