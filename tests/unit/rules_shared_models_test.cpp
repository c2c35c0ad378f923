// The models several checks of one run read are built once per CheckContext (check.h).

#include "kbaudit/facts.h"
#include "kbaudit/rules/check.h"
#include "kbaudit/semantic/forward_reach.h"

#include <gtest/gtest.h>

using namespace kbaudit;

namespace {

TEST(RulesSharedModels, ForwardReachIsBuiltOncePerRun) {
  const Facts facts = analyzeSource(SourceFile::fromBytes("import torch\nimport torch.nn as nn\n"
                                                          "class ModelNew(nn.Module):\n"
                                                          "    def forward(self, x):\n"
                                                          "        return x * 2\n"));
  const rules::CheckContext ctx{facts, nullptr};
  const semantic::ForwardReach &first = rules::forwardReach(ctx);
  EXPECT_TRUE(first.knownEntry());
  EXPECT_EQ(&first, &rules::forwardReach(ctx));
  // Another run's context builds its own.
  const Facts other = analyzeSource(SourceFile::fromBytes("x = 1\n"));
  const rules::CheckContext otherCtx{other, nullptr};
  EXPECT_NE(&first, &rules::forwardReach(otherCtx));
  EXPECT_FALSE(rules::forwardReach(otherCtx).knownEntry());
}

} // namespace
