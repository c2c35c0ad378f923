// Uninitialised buffers and the path that returns them (semantic/empty_buffers.h): MEM002 asks
// which allocation is uninitialised, which function produces the output, which return hands
// the buffer back and which test a write sits under.

#include "kbaudit/semantic/empty_buffers.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::branchAt;
using py::testing::src;
using py::testing::valueOf;

const std::string kSource = src(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        return self._run(x)
    def _run(self, x):
        out = torch.empty_like(x)
        if x.numel() == 0:
            return out
        if self.calls > 0:
            out.copy_(x)
        else:
            out.zero_()
        self.calls += 1
        if self.ready:
            out.add_(1)
        return out
    def _unused(self, x):
        buf = x.new_empty(4)
        zeros = torch.zeros(4)
        return buf
)PY");

TEST(SemanticEmptyBuffers, AllocationsAndProducers) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  EXPECT_TRUE(semantic::isEmptyAllocation(valueOf(f.python, "out")));
  EXPECT_TRUE(semantic::isEmptyAllocation(valueOf(f.python, "buf")));
  EXPECT_FALSE(semantic::isEmptyAllocation(valueOf(f.python, "zeros")));
  const std::set<std::string> producers = semantic::outputProducers(f);
  EXPECT_TRUE(producers.count("ModelNew.forward"));
  EXPECT_TRUE(producers.count("ModelNew._run")); // forward returns its result
  EXPECT_FALSE(producers.count("ModelNew._unused"));
}

TEST(SemanticEmptyBuffers, ReturnsAndGuards) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const py::Function *run = f.python.findFunction("ModelNew._run");
  ASSERT_NE(run, nullptr);
  const py::Branch *emptyCheck = branchAt(f.python, 7);
  const py::Branch *counter = branchAt(f.python, 9);
  const py::Branch *flag = branchAt(f.python, 14);
  ASSERT_TRUE(emptyCheck && counter && flag);
  EXPECT_FALSE(semantic::testsCallState(*emptyCheck)); // an argument
  EXPECT_TRUE(semantic::testsCallState(*counter));     // a counter kept across calls
  // The early exit on an empty input is skipped: the buffer's return is the last one.
  const std::optional<semantic::ReturnStatement> ret = semantic::returnOfBuffer(f.python, *run, "out", 6);
  ASSERT_TRUE(ret.has_value());
  EXPECT_EQ(ret->lines.begin, 16u);
  EXPECT_FALSE(semantic::returnOfBuffer(f.python, *run, "x", 6).has_value());
  EXPECT_EQ(semantic::writeGuard(f.python, *run, {10, 10}, {6, 6}, {16, 16}), counter);
  EXPECT_EQ(semantic::writeGuard(f.python, *run, {12, 12}, {6, 6}, {16, 16}), counter); // its else
  EXPECT_EQ(semantic::writeGuard(f.python, *run, {15, 15}, {6, 6}, {16, 16}), flag);
  EXPECT_EQ(semantic::writeGuard(f.python, *run, {13, 13}, {6, 6}, {16, 16}), nullptr);
  EXPECT_TRUE(semantic::writesOnBothSides({{10, 10}, {12, 12}}, *counter));
  EXPECT_FALSE(semantic::writesOnBothSides({{15, 15}}, *flag));
}

} // namespace
} // namespace kbaudit
