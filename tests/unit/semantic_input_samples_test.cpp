// Fixed-size samples of a function's inputs reduced to a statistic (semantic/input_samples.h):
// what RUB006 follows into a branch.

#include "kbaudit/semantic/input_samples.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

std::vector<semantic::InputSample> samplesOf(const std::string &text) {
  return semantic::inputSamples(analyzeSource(SourceFile::fromBytes(text)), {"forward"});
}

TEST(SemanticInputSamples, WindowedStatisticsOfAnInput) {
  const auto s = samplesOf(R"PY(import torch
def forward(x, n):
    flat = x.reshape(-1)
    a = flat[:4096].abs().max()
    b = torch.amax(x.flatten()[:8192])
    c = x[:n].abs().max()
    d = x.abs().max()
    e = x[:256].mean()
    return a
)PY");
  // One sample per statistic call: line 4 has two (.abs() strong, .max() weak).
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].lines.begin, 4u); // through a local view of the input
  EXPECT_EQ(s[1].lines.begin, 4u);
  EXPECT_TRUE(s[0].strength == semantic::SampleStrength::Strong || s[1].strength == semantic::SampleStrength::Strong);
  EXPECT_EQ(s[2].lines.begin, 5u); // the window inside the argument
  EXPECT_EQ(s[3].lines.begin, 8u);
  EXPECT_EQ(s[3].strength, semantic::SampleStrength::Weak); // a bare mean may be metadata
}

TEST(SemanticInputSamples, NotAnInputNorAFixedWindow) {
  const auto s = samplesOf(R"PY(import torch
w = torch.ones(10)
def forward(x):
    a = w[:256].abs().max()
    b = x[:256].view(-1)
    c = "x[:256].abs().max()"
    return x
)PY");
  EXPECT_TRUE(s.empty()); // a module weight, no statistic, a string
}

} // namespace
} // namespace kbaudit
