// What runs when the harness calls (semantic/harness_conditions.h, graded_path.h): the outcome of
// a branch test for inputs that do not require grad, under no_grad, in training mode; whether a
// statement's arms can be taken; whether a function is called from code that runs.

#include "kbaudit/semantic/graded_path.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

Facts facts(std::string_view code) { return analyzeSource(SourceFile::fromBytes(src(code))); }

const py::Call &call(const Facts &f, std::string_view callee) {
  for (const py::Call &c : f.python.calls)
    if (c.callee == callee)
      return c;
  ADD_FAILURE() << "no call " << callee;
  static const py::Call none;
  return none;
}

TEST(SemanticHarnessConditions, KnownOutcomesAndState) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x.requires_grad:
            a()
        if torch.is_grad_enabled() or not x.is_cuda:
            b()
        if self.training:
            c()
        if self.graph is None:
            self.graph = 1
        if x.shape[0] > 4:
            d()
)PY");
  const semantic::SolutionView sol = semantic::solutionView(f.python, {"x"});
  const semantic::HarnessView h;
  const auto read = [&](std::size_t i) { return semantic::readCondition(f.python.branches.at(i), h, sol); };
  EXPECT_EQ(read(0).outcome, semantic::Outcome::False);
  EXPECT_EQ(read(1).outcome, semantic::Outcome::False);
  EXPECT_EQ(read(2).outcome, semantic::Outcome::True);
  EXPECT_EQ(read(3).outcome, semantic::Outcome::Unknown);
  EXPECT_TRUE(read(3).state);
  EXPECT_EQ(read(4).outcome, semantic::Outcome::Unknown);
  EXPECT_FALSE(read(4).state);
  semantic::HarnessView eval;
  eval.training = false;
  EXPECT_EQ(semantic::readCondition(f.python.branches.at(2), eval, sol).outcome, semantic::Outcome::False);
}

TEST(SemanticHarnessConditions, EvalInTheConstructorMakesTrainingFalse) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.eval()
    def forward(self, x):
        if self.training:
            a()
)PY");
  const semantic::SolutionView sol = semantic::solutionView(f.python, {"x"});
  EXPECT_TRUE(sol.evalInConstructor);
  EXPECT_EQ(semantic::readCondition(f.python.branches.at(0), semantic::HarnessView{}, sol).outcome,
            semantic::Outcome::False);
}

TEST(SemanticGradedPath, KernelOnlyUnderRequiresGradNeverRuns) {
  const Facts f = facts(R"PY(
import torch
class _K(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return launch(x)
class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x.requires_grad:
            return _K.apply(x)
        return torch.nn.functional.gelu(x)
)PY");
  const semantic::ForwardReach reach(f, nullptr, "");
  const semantic::GradedPath path(reach, semantic::HarnessView{});
  EXPECT_FALSE(path.runs(call(f, "_K.apply")));
  EXPECT_FALSE(path.runs(call(f, "launch")));
  EXPECT_TRUE(path.runs(call(f, "torch.nn.functional.gelu")));
  EXPECT_NE(path.whyNot(call(f, "launch")).find("requires_grad"), std::string::npos) << path.whyNot(call(f, "launch"));
}

TEST(SemanticGradedPath, TheMirrorGateRunsTheKernel) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x.requires_grad:
            return torch.nn.functional.gelu(x)
        try:
            return launch(x)
        except RuntimeError:
            return fallback(x)
)PY");
  const semantic::ForwardReach reach(f, nullptr, "");
  const semantic::GradedPath path(reach, semantic::HarnessView{});
  EXPECT_FALSE(path.runs(call(f, "torch.nn.functional.gelu")));
  EXPECT_TRUE(path.runs(call(f, "launch")));
  // An except block runs only on an exception: feasible, but marked.
  const semantic::Feasibility onError = path.statement(call(f, "fallback").stmt);
  EXPECT_TRUE(onError.runs);
  EXPECT_TRUE(onError.onlyOnException);
}

} // namespace
} // namespace kbaudit
