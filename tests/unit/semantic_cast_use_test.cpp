// Whether a narrowing conversion's values are exact anyway and whether its result feeds
// math (kbaudit/semantic/cast_use.h): PREC001 reports only casts that change a score.

#include "kbaudit/semantic/cast_use.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

/// The first conversion call on `line` (a `.half()` / `.to(...)` call), or null.
const py::Call *castOn(const Facts &f, unsigned line) {
  for (const py::Call &c : f.python.calls)
    if (c.lines.begin == line && (c.method == "half" || c.method == "to" || c.method == "bfloat16"))
      return &c;
  return nullptr;
}

TEST(SemanticCastUse, ResultFeedsMath) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch

def attend(q, k, v):
    q = q.half()
    k = k.view(-1, 64).half().contiguous()
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)

def inline(a, b):
    return torch.matmul(a.half(), b)

def operator(a, b):
    a = a.to(torch.float16)
    return a @ b

def stored(x, cache):
    y = x.half()
    cache["y"] = y
    print(x.half())
    return x.sum()

def keyword_only(x, m):
    return torch.sum(x, dtype=m.half())

def later_unrelated(x, w):
    z = x.half()
    return torch.matmul(x, w)
)PY"));
  for (unsigned line : {4u, 5u, 9u, 12u, 16u, 18u, 22u, 25u})
    ASSERT_NE(castOn(f, line), nullptr) << line;
  EXPECT_TRUE(semantic::castFeedsMath(f, *castOn(f, 4))) << "bound to q, which attention reads";
  EXPECT_TRUE(semantic::castFeedsMath(f, *castOn(f, 5))) << "through further methods on the result";
  EXPECT_TRUE(semantic::castFeedsMath(f, *castOn(f, 9))) << "narrowed in the matmul's argument list";
  EXPECT_TRUE(semantic::castFeedsMath(f, *castOn(f, 12))) << "read by @";
  EXPECT_FALSE(semantic::castFeedsMath(f, *castOn(f, 16))) << "only stored";
  EXPECT_FALSE(semantic::castFeedsMath(f, *castOn(f, 18))) << "only printed";
  EXPECT_FALSE(semantic::castFeedsMath(f, *castOn(f, 22))) << "a torch op's keyword is an option";
  EXPECT_FALSE(semantic::castFeedsMath(f, *castOn(f, 25))) << "the math reads x, not the narrowed z";
}

TEST(SemanticCastUse, ExactValues) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch

def f(x, n):
    m = (x > 0).half()
    r = torch.arange(n).half()
    o = torch.ones_like(x).half()
    a = x.half()
    b = torch.relu(x).half()
    return m, r, o, a, b
)PY"));
  for (unsigned line = 4; line <= 8; ++line)
    ASSERT_NE(castOn(f, line), nullptr) << line;
  EXPECT_TRUE(semantic::castsExactValues(f.python, *castOn(f, 4))) << "a mask";
  EXPECT_TRUE(semantic::castsExactValues(f.python, *castOn(f, 5))) << "a ramp of constants";
  EXPECT_TRUE(semantic::castsExactValues(f.python, *castOn(f, 6)));
  EXPECT_FALSE(semantic::castsExactValues(f.python, *castOn(f, 7)));
  EXPECT_FALSE(semantic::castsExactValues(f.python, *castOn(f, 8))) << "an activation, not a factory";
}

TEST(SemanticCastUse, ComputesWithAndModuleClasses) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch

def helper(x):
    return x

def f(x, w):
    a = torch.matmul(x, w)
    b = x.view(-1)
    c = helper(x)
    d = torch.mean(x)
    return a, b, c, d
)PY"));
  const auto callOn = [&](unsigned line) -> const py::Call & {
    for (const py::Call &c : f.python.calls)
      if (c.lines.begin == line)
        return c;
    ADD_FAILURE() << "no call on line " << line;
    return f.python.calls.front();
  };
  EXPECT_TRUE(semantic::computesWith(f, callOn(7)));
  EXPECT_FALSE(semantic::computesWith(f, callOn(8))) << "a view does no math";
  EXPECT_TRUE(semantic::computesWith(f, callOn(9))) << "a helper of the file";
  EXPECT_TRUE(semantic::computesWith(f, callOn(10))) << "a reduction";

  EXPECT_TRUE(semantic::isNnModuleClass("torch.nn.Linear"));
  EXPECT_FALSE(semantic::isNnModuleClass("torch.nn.functional.linear"));
  EXPECT_FALSE(semantic::isNnModuleClass("torch.nn."));
  EXPECT_FALSE(semantic::isNnModuleClass("mylib.nn.Linear"));
  EXPECT_EQ(semantic::callHead("nn.Linear(4, 8).half"), "nn.Linear");
  EXPECT_EQ(semantic::callHead("x.float"), "x.float");
}

} // namespace
} // namespace kbaudit
