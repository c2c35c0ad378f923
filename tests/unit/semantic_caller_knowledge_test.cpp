// What code learns about its caller (semantic/caller_knowledge.h), through helpers and names:
// RUB001 asks it of each branch.

#include "kbaudit/semantic/caller_knowledge.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

TEST(SemanticCallerKnowledge, FramesHelpersAndNames) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import inspect, os
def _who():
    return inspect.stack()[2].filename
def forward(x):
    origin = _who()
    label = "origin"
    knob = os.environ.get("MY_TILE")
    return x
)PY"));
  const semantic::CallerKnowledge k(f);
  const semantic::CallerSniff *helper = k.helper("_who");
  ASSERT_NE(helper, nullptr);
  EXPECT_EQ(helper->how, "inspect.stack()");
  EXPECT_FALSE(helper->env);
  EXPECT_TRUE(k.nameAmong("forward", {"origin"}));   // bound from the helper
  EXPECT_FALSE(k.nameAmong("forward", {"label"}));   // a string spelling the name
  EXPECT_FALSE(k.nameAmong("forward", {"knob"}));    // an author's knob, not a harness's name
  EXPECT_FALSE(k.sniffIn("forward", {7, 7}, false)); // the same knob line
  EXPECT_TRUE(semantic::hasGraderWord("run_BENCHMARK"));
  EXPECT_FALSE(semantic::hasGraderWord("tile_size"));
}

} // namespace
} // namespace kbaudit
