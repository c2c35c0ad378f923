// Which branch conditions test a magnitude statistic (kbaudit/semantic/magnitude_gate.h):
// directly, through a name carrying the decision, or through a detector kernel's buffer.

#include "kbaudit/semantic/magnitude_gate.h"

#include "kbaudit/facts.h"
#include "kbaudit/semantic/entry_points.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

const py::Branch *branchOn(const Facts &f, unsigned line) {
  for (const py::Branch &b : f.python.branches)
    if (b.lines.begin == line)
      return &b;
  return nullptr;
}

TEST(SemanticMagnitudeGate, DirectAndThroughNames) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch

class Model(torch.nn.Module):
    def forward(self, x):
        if x.abs().max() > 1e3:
            x = x.float()
        big = torch.isinf(x).any()
        flag = big or False
        if flag:
            x = x.double()
        longest = x.max()
        if longest > 4:
            x = x.half()
        scale = x.abs().amax() / 448.0
        y = x * scale
        if y.shape[0] > 16:
            x = x.half()
        return x
)PY"));
  const semantic::MagnitudeGates gates(f, semantic::reachableFromEntry(f));
  for (unsigned line : {5u, 9u, 12u, 16u})
    ASSERT_NE(branchOn(f, line), nullptr) << line;
  const auto direct = gates.gateOf(*branchOn(f, 5));
  ASSERT_TRUE(direct);
  EXPECT_EQ(direct->strength, semantic::Strength::Strong);
  const auto named = gates.gateOf(*branchOn(f, 9));
  ASSERT_TRUE(named) << "followed through `big` and the boolean combination `flag`";
  EXPECT_EQ(named->strength, semantic::Strength::Strong);
  EXPECT_EQ(named->lines.begin, 8u) << "quotes the decision the branch reads";
  const auto weak = gates.gateOf(*branchOn(f, 12));
  ASSERT_TRUE(weak);
  EXPECT_EQ(weak->strength, semantic::Strength::Weak) << "a bare max may be routing metadata";
  EXPECT_FALSE(gates.gateOf(*branchOn(f, 16)))
      << "a scale feeds arithmetic, not a decision: a later shape test is no gate";
}

TEST(SemanticMagnitudeGate, DetectorKernelBufferReadBack) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
import triton
import triton.language as tl


@triton.jit
def _probe(x_ptr, out_ptr, N: tl.constexpr):
    v = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr, tl.max(tl.abs(v), axis=0))


class Model(torch.nn.Module):
    def forward(self, x):
        flag = torch.empty((), device=x.device)
        _probe[(1,)](x, flag, N=1024)
        if flag.item() > 1.0:
            return x.double()
        return x
)PY"));
  const semantic::MagnitudeGates gates(f, semantic::reachableFromEntry(f));
  ASSERT_NE(branchOn(f, 16), nullptr);
  const auto gate = gates.gateOf(*branchOn(f, 16));
  ASSERT_TRUE(gate);
  EXPECT_EQ(gate->strength, semantic::Strength::Strong);
  EXPECT_NE(gate->what.find("_probe"), std::string::npos) << gate->what;

  const semantic::MagnitudeGates unreached(f, {});
  EXPECT_FALSE(unreached.gateOf(*branchOn(f, 16))) << "a launch outside the reached code fills no detector buffer";
}

} // namespace
} // namespace kbaudit
