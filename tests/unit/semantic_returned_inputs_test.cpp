// Inputs a function hands back as its output (semantic/returned_inputs.h): MEM003 asks it of
// the solution's entry point and of the reference's, and which input a returned extension call
// receives at a given position.

#include "kbaudit/semantic/returned_inputs.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

TEST(SemanticReturnedInputs, InputsAndViewsReturnedOnce) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
class Decoder:
    def step(self, x, cache, scale):
        if scale is None:
            return x, cache[:4]
        cache = torch.zeros(4)
        return cache, x.view(-1), scale * 2
)PY")));
  const py::Function *fn = f.python.findFunction("Decoder.step");
  ASSERT_NE(fn, nullptr);
  const std::vector<semantic::ReturnedInput> r = semantic::returnedInputs(f.python, *fn);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].param, "x");
  EXPECT_EQ(r[0].position, 0u);
  EXPECT_EQ(r[0].lines.begin, 5u);
  EXPECT_EQ(r[1].param, "cache"); // a view, before the rebinding; `self` is no input
  EXPECT_EQ(r[1].position, 1u);
  EXPECT_EQ(r[1].lines.begin, 5u);
  ASSERT_NE(r[1].item, nullptr);
  EXPECT_EQ(r[1].item->kind, py::ExprKind::Subscript);
}

TEST(SemanticReturnedInputs, ReboundInputIsNotReturned) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
def f(x):
    x = x * 2
    return x
)PY")));
  const py::Function *fn = f.python.findFunction("f");
  ASSERT_NE(fn, nullptr);
  EXPECT_TRUE(semantic::returnedInputs(f.python, *fn).empty());
}

TEST(SemanticReturnedInputs, InputPassedToAReturnedExtensionCall) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
def forward(a, b, c):
    ext.scale(c, a)
    return ext.add(a, b)
)PY")));
  const py::Function *fn = f.python.findFunction("forward");
  ASSERT_NE(fn, nullptr);
  const std::vector<semantic::PassedInput> first = semantic::inputsPassedToReturnedCall(f.python, *fn, "add", 0);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].param, "a");
  EXPECT_EQ(first[0].position, 0u);
  const std::vector<semantic::PassedInput> second = semantic::inputsPassedToReturnedCall(f.python, *fn, "add", 1);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].param, "b");
  EXPECT_TRUE(semantic::inputsPassedToReturnedCall(f.python, *fn, "add", 2).empty());
  EXPECT_TRUE(semantic::inputsPassedToReturnedCall(f.python, *fn, "scale", 0).empty()); // not returned
}

TEST(SemanticReturnedInputs, ExportDefinition) {
  cxx::CxxFacts cxx;
  cxx::CxxFunction decl;
  decl.qualifiedName = "run";
  cxx::CxxFunction def = decl;
  def.definition = true;
  cxx.functions = {decl, def};
  cxx::ExportedFunction ex;
  ex.target = "run";
  EXPECT_EQ(semantic::exportDefinition(cxx, ex), &cxx.functions[1]);
  ex.target = "other";
  EXPECT_EQ(semantic::exportDefinition(cxx, ex), nullptr);
}

} // namespace
} // namespace kbaudit
