// Whether a value is input or weight data (kbaudit/semantic/input_data.h): PREC001 reports a
// narrowing of the data forward was handed, not of values it computed.

#include "kbaudit/semantic/input_data.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

TEST(SemanticInputData, ReceiverDataRoot) {
  EXPECT_EQ(semantic::receiverDataRoot("x"), "x");
  EXPECT_EQ(semantic::receiverDataRoot("self.lin.weight.data"), "self");
  EXPECT_EQ(semantic::receiverDataRoot("x.contiguous()"), "x");
  EXPECT_EQ(semantic::receiverDataRoot("w.t().view(-1, (n + 1))"), "w") << "nested brackets in a view's arguments";
  EXPECT_EQ(semantic::receiverDataRoot("(idx < n)"), "") << "a computed mask";
  EXPECT_EQ(semantic::receiverDataRoot("torch.arange(n)"), "") << "a call that is not a view";
  EXPECT_EQ(semantic::receiverDataRoot("x + 1"), "");
  EXPECT_EQ(semantic::receiverDataRoot("x.view(-1"), "") << "an unbalanced spelling";
}

TEST(SemanticInputData, InputsAndWeights) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch

class Model(torch.nn.Module):
    def forward(self, x: torch.Tensor, *rest, scale=1.0, **kw):
        y = x * scale
        return y
)PY"));
  const py::Function *fn = f.python.findFunction("Model.forward");
  ASSERT_NE(fn, nullptr);
  EXPECT_TRUE(semantic::declaresParam(*fn, "x")) << "an annotated parameter";
  EXPECT_TRUE(semantic::declaresParam(*fn, "rest"));
  EXPECT_TRUE(semantic::declaresParam(*fn, "scale")) << "a defaulted parameter";
  EXPECT_TRUE(semantic::declaresParam(*fn, "kw"));
  EXPECT_FALSE(semantic::declaresParam(*fn, "y")) << "a local";
  EXPECT_TRUE(semantic::isInputOrWeight(f.python, "Model.forward", "x"));
  EXPECT_TRUE(semantic::isInputOrWeight(f.python, "Model.forward", "self"));
  EXPECT_FALSE(semantic::isInputOrWeight(f.python, "Model.forward", "y"));
  EXPECT_FALSE(semantic::isInputOrWeight(f.python, "Model.forward", ""));
  EXPECT_FALSE(semantic::isInputOrWeight(f.python, "no_such_function", "x"));
}

} // namespace
} // namespace kbaudit
