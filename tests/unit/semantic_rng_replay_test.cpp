// Replays of the harness's random inputs (semantic/rng_replay.h): RUB007 reports them.

#include "kbaudit/semantic/rng_replay.h"

#include "kbaudit/facts.h"
#include "kbaudit/python/frontend.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

/// The facts and what the scan finds in them (replays point into the facts).
struct Scan {
  Facts facts;
  std::vector<semantic::RngReplay> replays;
};

Scan scanOf(const std::string &text) {
  Scan s{analyzeSource(SourceFile::fromBytes(text)), {}};
  s.replays = semantic::rngReplays(s.facts, {"ModelNew.forward"}, {});
  return s;
}

TEST(SemanticRngReplay, ReseededDrawComparedWithTheInput) {
  const Scan scan = scanOf(R"PY(import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        torch.manual_seed(42)
        expected = torch.randn(1024)
        if torch.equal(x, expected):
            return x * 2
        return x
)PY");
  const auto &r = scan.replays;
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].decisive);
  EXPECT_EQ(r[0].source->lines.begin, 5u);
  EXPECT_NE(r[0].evidence.find("`expected` is compared with forward's input `x`"), std::string::npos) << r[0].evidence;
}

TEST(SemanticRngReplay, AnUnseededDrawOrAComparisonInAStringIsNone) {
  EXPECT_TRUE(scanOf(R"PY(import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        noise = torch.randn(1024)
        if torch.equal(x, noise):
            return x
        return x
)PY")
                  .replays.empty());
  EXPECT_TRUE(scanOf(R"PY(import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        torch.manual_seed(0)
        w = torch.randn(16)
        print("torch.equal(x, w)")
        return x @ w
)PY")
                  .replays.empty());
}

TEST(SemanticRngReplay, InitLikeAndGeneratorCalls) {
  EXPECT_TRUE(semantic::isInitLike("ModelNew.__init__"));
  EXPECT_TRUE(semantic::isInitLike("get_inputs"));
  EXPECT_FALSE(semantic::isInitLike("ModelNew.forward"));
}

} // namespace
} // namespace kbaudit
