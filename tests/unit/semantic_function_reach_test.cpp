// Which functions a function reaches within one file, and whether they launch authored code
// (kbaudit/semantic/function_reach.h): WRAP004 compares the reference's and the solution's.

#include "kbaudit/semantic/function_reach.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace kbaudit {
namespace {

std::set<std::string> names(const std::vector<const py::Function *> &fns) {
  std::set<std::string> out;
  for (const py::Function *fn : fns)
    out.insert(fn->qualname);
  return out;
}

TEST(SemanticFunctionReach, CallsMethodsAndNestedDefs) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch


def helper(x):
    return torch.relu(x)


def unused(x):
    return x


class Block:
    def step(self, x):
        return x


class Other:
    def step(self, x):
        return x


class Model(torch.nn.Module):
    def forward(self, x):
        def inner(y):
            return helper(y)
        self._prep(x)
        self.blk.step(x)
        torch.zeros(1)
        return inner(x)

    def _prep(self, x):
        return x
)PY"));
  const py::Function *fwd = f.python.findFunction("Model.forward");
  ASSERT_NE(fwd, nullptr);
  const std::vector<const py::Function *> fns = semantic::functionsReachedFrom(f.python, *fwd);
  ASSERT_FALSE(fns.empty());
  EXPECT_EQ(fns.front(), fwd) << "the entry comes first";
  const std::set<std::string> reached = names(fns);
  EXPECT_TRUE(reached.count("Model.forward.inner")) << "a nested def";
  EXPECT_TRUE(reached.count("helper")) << "through the nested def";
  EXPECT_TRUE(reached.count("Model._prep")) << "a method through self";
  EXPECT_TRUE(reached.count("Block.step") && reached.count("Other.step")) << "an unknown object's class: every step";
  EXPECT_FALSE(reached.count("unused"));
  EXPECT_FALSE(semantic::launchesAuthoredCode(f, fns));
}

TEST(SemanticFunctionReach, LaunchesAuthoredCode) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
import triton
import triton.language as tl


@triton.jit
def _k(x_ptr):
    pass


def launch(x):
    _k[(1,)](x)


def plain(x):
    return x
)PY"));
  const py::Function *launch = f.python.findFunction("launch");
  const py::Function *plain = f.python.findFunction("plain");
  ASSERT_TRUE(launch && plain);
  EXPECT_TRUE(semantic::launchesAuthoredCode(f, {launch}));
  EXPECT_FALSE(semantic::launchesAuthoredCode(f, {plain}));
  EXPECT_FALSE(semantic::launchesAuthoredCode(f, {}));
}

} // namespace
} // namespace kbaudit
