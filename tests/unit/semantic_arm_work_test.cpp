// The arms of an `if` and the numeric work on each (semantic/arm_work.h): RUB004, RUB005 and
// RUB006 compare what the sides of a dispatch compute.

#include "kbaudit/semantic/arm_work.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

TEST(SemanticArmWork, ArmsOfIfElifElseAndEarlyReturn) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
def f(x, m):
    if m == 1:
        y = x.half()
    elif m == 2:
        y = x.float()
    else:
        y = x
    if m > 8:
        return y.bfloat16()
    z = torch.relu(y)
    return z
def g(x):
    if x.numel() > 4:
        x = x * 2
    return x
)PY")));
  const py::Branch *chain = py::testing::branchAt(f.python, 3);
  ASSERT_NE(chain, nullptr);
  const std::vector<LineRange> arms = semantic::armsOf(f, *chain);
  ASSERT_EQ(arms.size(), 3u);
  EXPECT_EQ(arms[0].begin, 4u);
  EXPECT_EQ(arms[0].end, 4u);
  EXPECT_EQ(arms[1].begin, 6u);
  EXPECT_EQ(arms[2].begin, 7u); // from the `else:` line, which holds no work
  EXPECT_EQ(arms[2].end, 8u);
  const py::Branch *leaves = py::testing::branchAt(f.python, 9);
  ASSERT_NE(leaves, nullptr);
  const std::vector<LineRange> rest = semantic::armsOf(f, *leaves);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[1].begin, 11u); // the block returns: the rest of the function is the other path
  EXPECT_EQ(rest[1].end, 12u);
  const py::Branch *skips = py::testing::branchAt(f.python, 14);
  ASSERT_NE(skips, nullptr);
  const std::vector<LineRange> skip = semantic::armsOf(f, *skips);
  ASSERT_EQ(skip.size(), 2u);
  EXPECT_FALSE(skip[1].valid()); // the path that skips the block

  const semantic::ArmWork half = semantic::workIn(f, "f", arms[0]);
  EXPECT_EQ(half.dtypeSet(), std::set<std::string>{"fp16"});
  EXPECT_TRUE(half.anyCall);
  EXPECT_EQ(semantic::workIn(f, "f", arms[1]).dtypeSet(), std::set<std::string>{"fp32"});
  const semantic::ArmWork plain = semantic::workIn(f, "f", arms[2]);
  EXPECT_TRUE(plain.dtypes.empty());
  EXPECT_FALSE(plain.anyCall);
  EXPECT_FALSE(semantic::workIn(f, "f", skip[1]).anyCall); // an empty arm does nothing
}

TEST(SemanticArmWork, FollowsHelpersOneLevel) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
def _cheap(x):
    return x.to(torch.float8_e4m3fn)
def f(x, m):
    if m == 4096:
        y = _cheap(x)
    else:
        raise ValueError("m")
    return y
)PY")));
  const py::Branch *b = py::testing::branchAt(f.python, 5);
  ASSERT_NE(b, nullptr);
  const std::vector<LineRange> arms = semantic::armsOf(f, *b);
  ASSERT_EQ(arms.size(), 2u);
  const semantic::ArmWork via = semantic::workIn(f, "f", arms[0]);
  ASSERT_EQ(via.dtypes.size(), 1u);
  EXPECT_EQ(via.dtypes[0].dtype, "fp8e4m3");
  EXPECT_EQ(via.dtypes[0].note.rfind("via _cheap(): casts to fp8e4m3", 0), 0u) << via.dtypes[0].note;
  EXPECT_FALSE(semantic::workIn(f, "f", arms[1]).anyCall); // raising is not work
  EXPECT_EQ(semantic::precisionBits("tf32"), 19u);
  EXPECT_EQ(semantic::precisionBits("bf16"), 16u);
  EXPECT_EQ(semantic::precisionBits("nonsense"), 0u);
}

TEST(SemanticArmWork, EffectsOfAnArm) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        if self.n > 3:
            return self._out
        elif self.n > 2:
            y = torch.matmul(x, x)
        elif self.n > 1:
            self.g = torch.compile(self.f)
        else:
            print("first")
        return x @ x
)PY")));
  const py::Branch *b = py::testing::branchAt(f.python, 4);
  ASSERT_NE(b, nullptr);
  const std::vector<LineRange> arms = semantic::armsOf(f, *b);
  ASSERT_EQ(arms.size(), 4u);
  const semantic::ArmEffects stored = semantic::effectsOf(f, "ModelNew.forward", arms[0]);
  EXPECT_FALSE(stored.computes);
  EXPECT_TRUE(stored.readsState);
  const semantic::ArmEffects math = semantic::effectsOf(f, "ModelNew.forward", arms[1]);
  EXPECT_TRUE(math.computes);
  EXPECT_TRUE(math.torchMath);
  EXPECT_FALSE(math.kernel);
  EXPECT_TRUE(math.assigns);
  EXPECT_TRUE(semantic::effectsOf(f, "ModelNew.forward", arms[2]).setup);
  const semantic::ArmEffects logs = semantic::effectsOf(f, "ModelNew.forward", arms[3]);
  EXPECT_FALSE(logs.computes);
  EXPECT_FALSE(logs.assigns);
  EXPECT_FALSE(semantic::effectsOf(f, "ModelNew.forward", LineRange{}).computes); // no arm
  EXPECT_TRUE(semantic::effectsOf(f, "ModelNew.forward", LineRange{12, 12}).library); // `@`
}

} // namespace
} // namespace kbaudit
