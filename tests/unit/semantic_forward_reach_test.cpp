// What the graded call runs, read wider than the inventory (semantic/forward_reach.h): the
// timing rules (TIME001-TIME004) ask it which functions forward reaches, which function a
// callable names, whether a function does GPU work or only builds code.

#include "kbaudit/semantic/forward_reach.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

const std::string kSolution = src(R"PY(
import functools
import torch
class _State:
    def run(self, x):
        return torch.relu(x)
def _build():
    return torch.utils.cpp_extension.load_inline("m", "src")
def _helper(x):
    return x.matmul(x)
def _unused(x):
    return torch.relu(x)
def _configure():
    torch.backends.cudnn.benchmark = True
    return torch.empty(4)
def run(x, steps):
    return x
class ModelNew(torch.nn.Module):
    def forward(self, x):
        st = _State()
        cb = functools.partial(_helper, x)
        hook = self._hook
        return st.run(x)
    def _hook(self):
        return _configure()
)PY");

TEST(SemanticForwardReach, FollowsObjectsCallablesAndNestedDefs) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSolution));
  const semantic::ForwardReach reach(f, nullptr, "");
  ASSERT_TRUE(reach.knownEntry());
  EXPECT_TRUE(reach.reached("ModelNew.forward"));
  EXPECT_TRUE(reach.reached("_State.run"));  // a method of an object forward builds
  EXPECT_TRUE(reach.reached("_helper"));     // handed on through functools.partial
  EXPECT_FALSE(reach.reached("_unused"));
  EXPECT_FALSE(reach.reached("run"));        // no reference: not a harness entry
  EXPECT_EQ(reach.inputNames(), std::set<std::string>{"x"});
  EXPECT_EQ(reach.resolveCallableName("self._hook", "ModelNew.forward"), "ModelNew._hook");
  EXPECT_EQ(reach.resolveCallableName("_helper", "ModelNew.forward"), "_helper");
  EXPECT_EQ(reach.resolveCallableName("torch.relu", "ModelNew.forward"), "");
  const std::vector<const py::Expr *> st = reach.bindings("st", "ModelNew.forward");
  ASSERT_EQ(st.size(), 1u);
  EXPECT_TRUE(reach.boundToCall("st", "ModelNew.forward", {"_State"}));
  EXPECT_FALSE(reach.boundToCall("st", "_helper", {"_State"})); // another function's local
  EXPECT_EQ(reach.resolveCallable(py::testing::valueOf(f.python, "hook"), "ModelNew.forward"), "ModelNew._hook");
  EXPECT_EQ(reach.resolveCallable(py::testing::valueOf(f.python, "cb"), "ModelNew.forward"), "_helper");
}

TEST(SemanticForwardReach, WorkBuildsAndHousekeeping) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSolution));
  const semantic::ForwardReach reach(f, nullptr, "");
  EXPECT_TRUE(reach.doesWork("_helper"));     // x.matmul
  EXPECT_TRUE(reach.doesWork("_State.run"));  // torch.relu
  EXPECT_FALSE(reach.doesWork("_configure")); // backend switches and an allocation compute nothing
  EXPECT_FALSE(reach.doesWork("ModelNew._hook"));
  EXPECT_FALSE(reach.doesWork("_build"));
  EXPECT_TRUE(reach.onlyBuilds("_build"));
  EXPECT_FALSE(reach.onlyBuilds("_helper"));
  EXPECT_FALSE(reach.onlyBuilds("_configure"));
  EXPECT_TRUE(reach.reachedExports().empty());
}

TEST(SemanticForwardReach, ReferenceApiRedefinedIsAnEntry) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSolution));
  const Facts ref = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
def run(x, steps):
    return x * steps
class Model(torch.nn.Module):
    def forward(self, x):
        return run(x, 2)
)PY")));
  const semantic::ForwardReach reach(f, &ref.python, "Model");
  EXPECT_TRUE(reach.reached("run"));
  EXPECT_EQ(std::count(reach.entries().begin(), reach.entries().end(), "run"), 1);
}

// Nested defs shadow module-level ones from the innermost scope out; a dotted name resolves
// only when it is a function's whole qualname or the tail of one seen from an enclosing scope.
TEST(SemanticForwardReach, NestedAndDottedCallableNames) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
def step(x):
    return x
class Outer:
    def forward(self, x):
        def step(y):
            return y
        fn = step
        alias = torch.relu
        return step(x)
    class Inner:
        def go(self):
            pass
)PY")));
  const semantic::ForwardReach reach(f, nullptr, "");
  EXPECT_EQ(reach.resolveCallableName("step", "Outer.forward"), "Outer.forward.step");
  EXPECT_EQ(reach.resolveCallableName("step", "Outer.forward.step"), "Outer.forward.step");
  EXPECT_EQ(reach.resolveCallableName("step", ""), "step");
  EXPECT_EQ(reach.resolveCallableName("Inner.go", "Outer.forward"), "Outer.Inner.go");
  EXPECT_EQ(reach.resolveCallableName("Outer.Inner.go", "step"), "Outer.Inner.go");
  EXPECT_EQ(reach.resolveCallableName("go", "Outer.forward"), "");
  EXPECT_EQ(reach.resolveCallableName("alias", "Outer.forward"), "");
  EXPECT_EQ(reach.resolveCallableName("  step\n", "Outer.forward"), "Outer.forward.step"); // layout trimmed
}

TEST(SemanticForwardReach, ArgumentByPositionOrKeyword) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import threading
def work():
    pass
a = threading.Thread(None, work)
b = threading.Thread(target=work)
)PY")));
  const std::vector<const py::Call *> calls = py::testing::callsTo(f.python, "threading.Thread");
  ASSERT_EQ(calls.size(), 2u);
  const py::Argument *first = semantic::argumentOf(*calls[0], 1, "target");
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(semantic::argumentOf(*calls[1], 1, "target") != nullptr);
  EXPECT_EQ(semantic::argumentOf(*calls[1], 1, "group"), nullptr);
}

} // namespace
} // namespace kbaudit
