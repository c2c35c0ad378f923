// Branch tests that decide on a sample of the input values (semantic/sample_gates.h): RUB006
// asks which sample a test reads, directly or through names derived from it.

#include "kbaudit/semantic/sample_gates.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::branchAt;
using py::testing::src;

TEST(SemanticSampleGates, DirectAndDerivedTests) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x[:256].abs().max() > 1e3:
            x = x * 0.5
        peak = x.flatten()[:8192].abs().amax()
        big = peak > 100.0
        wide = big
        if wide:
            return x.half()
        if x.shape[0] > 4:
            return x
        return x.float()
)PY")));
  const std::set<std::string> forward{"ModelNew.forward"};
  const semantic::SampleGates gates(f, forward);
  ASSERT_FALSE(gates.empty());
  const std::optional<semantic::InputSample> direct = gates.gateOf(*branchAt(f.python, 4));
  ASSERT_TRUE(direct.has_value());
  EXPECT_EQ(direct->lines.begin, 4u);
  EXPECT_EQ(direct->strength, semantic::SampleStrength::Strong);
  const std::optional<semantic::InputSample> derived = gates.gateOf(*branchAt(f.python, 9));
  ASSERT_TRUE(derived.has_value()); // wide <- big <- peak <- the sample on line 6
  EXPECT_EQ(derived->lines.begin, 6u);
  EXPECT_FALSE(gates.gateOf(*branchAt(f.python, 11)).has_value()); // a shape, not a value
}

TEST(SemanticSampleGates, NoSampleOutsideTheFunctions) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
def f(x):
    if x[:256].abs().max() > 1e3:
        return x.half()
    return x
)PY")));
  EXPECT_TRUE(semantic::SampleGates(f, {}).empty());
  EXPECT_FALSE(semantic::SampleGates(f, {"f"}).empty());
}

} // namespace
} // namespace kbaudit
