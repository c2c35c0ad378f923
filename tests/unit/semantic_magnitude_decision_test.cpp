// Which calls are magnitude statistics, which read a device value back, and which values only
// carry a decision on (kbaudit/semantic/magnitude_decision.h): PREC005 follows a magnitude gate
// through them.

#include "kbaudit/semantic/magnitude_decision.h"
#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

using semantic::Strength;

TEST(SemanticMagnitudeDecision, StatisticStrength) {
  EXPECT_EQ(semantic::statisticStrength("torch.amax"), Strength::Strong);
  EXPECT_EQ(semantic::statisticStrength("x.abs"), Strength::Strong);
  EXPECT_EQ(semantic::statisticStrength("torch.linalg.vector_norm"), Strength::Strong);
  EXPECT_EQ(semantic::statisticStrength("lengths.max"), Strength::Weak); // may be routing metadata
  EXPECT_EQ(semantic::statisticStrength("max"), Strength::None);         // a Python builtin
  EXPECT_EQ(semantic::statisticStrength("math.fabs"), Strength::None);
  EXPECT_EQ(semantic::statisticStrength("torch.matmul"), Strength::None);
}

TEST(SemanticMagnitudeDecision, ReadBackAndCarriedDecisions) {
  EXPECT_TRUE(semantic::readsBack("s.item"));
  EXPECT_TRUE(semantic::readsBack("flags.any"));
  EXPECT_FALSE(semantic::readsBack("x.abs"));
  auto f = analyze(src(R"PY(
def forward(x, s):
    a = s.item()
    b = a > 3.0
    c = x * s
    d = not b
    e = torch.matmul(x, x)
    return a
)PY"));
  EXPECT_TRUE(semantic::carriesDecision(assignmentTo(f, "a")->value));
  EXPECT_TRUE(semantic::carriesDecision(assignmentTo(f, "b")->value));
  EXPECT_FALSE(semantic::carriesDecision(assignmentTo(f, "c")->value)); // arithmetic computes
  EXPECT_TRUE(semantic::carriesDecision(assignmentTo(f, "d")->value));
  EXPECT_FALSE(semantic::carriesDecision(assignmentTo(f, "e")->value));
}

TEST(SemanticMagnitudeDecision, OneAnswerForBothRulesThatFollowAStatistic) {
  // PREC005 (a magnitude gate) and RUB006 (a sampled statistic) follow the same carriers: a mean
  // and a subscript carry the decision on, a scaling does not.
  auto f = analyze(src(R"PY(
def forward(x):
    m = x[:64].abs().mean()
    s = stats[0]
    q = x * m
    return q
)PY"));
  EXPECT_TRUE(semantic::carriesDecision(assignmentTo(f, "m")->value));
  EXPECT_TRUE(semantic::carriesDecision(assignmentTo(f, "s")->value));
  EXPECT_FALSE(semantic::carriesDecision(assignmentTo(f, "q")->value));
}

} // namespace
} // namespace kbaudit::py::testing
