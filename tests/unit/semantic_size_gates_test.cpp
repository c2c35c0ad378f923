// Exact problem-size gates (semantic/size_gates.h): RUB005 asks whether a branch test compares
// a size with exact large problem sizes, directly or through a name that holds such a test.

#include "kbaudit/semantic/size_gates.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

const std::string kSource = src(R"PY(
import torch
def _pick(m, x):
    if m == 16384:
        return x.half()
    return x
class ModelNew(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.big = n == 8192
    def forward(self, x, k):
        M = x.shape[0]
        flag = x.sum()
        use_fp8 = M == 16384
        if M == 16384:
            pass
        if k == 16384:
            pass
        if flag == 16384:
            pass
        if self.n in (4096, 8192):
            pass
        if M == 64:
            pass
        if use_fp8:
            pass
        return _pick(M, x)
)PY");

TEST(SemanticSizeGates, WhatHoldsASize) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const py::PythonFacts &py = f.python;
  EXPECT_TRUE(semantic::holdsSize(py, "M", "ModelNew.forward"));       // from x.shape
  EXPECT_FALSE(semantic::holdsSize(py, "flag", "ModelNew.forward"));   // from the data
  EXPECT_FALSE(semantic::holdsSize(py, "k", "ModelNew.forward"));      // forward's own input
  EXPECT_TRUE(semantic::holdsSize(py, "self.n", "ModelNew.forward"));  // a constructor argument
  EXPECT_FALSE(semantic::holdsSize(py, "self.w", "ModelNew.forward")); // never set in __init__
  EXPECT_TRUE(semantic::holdsSize(py, "m", "_pick"));                  // a helper's parameter
  EXPECT_FALSE(semantic::holdsSize(py, "M + 1", "ModelNew.forward"));  // not a name
}

TEST(SemanticSizeGates, BranchTestsAndNamesHoldingThem) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const py::PythonFacts &py = f.python;
  std::vector<std::optional<std::string>> gates;
  for (const py::Branch &b : py.branches)
    if (b.function == "ModelNew.forward" && b.kind == "if")
      gates.push_back(semantic::exactSizeGate(py, std::string_view(b.condition), b.function));
  ASSERT_EQ(gates.size(), 6u);
  EXPECT_EQ(gates[0], std::optional<std::string>("M == 16384"));
  EXPECT_EQ(gates[1], std::nullopt); // k is an input, not a size read
  EXPECT_EQ(gates[2], std::nullopt); // flag is a value of the data
  EXPECT_EQ(gates[3], std::optional<std::string>("self.n in (4096, 8192)"));
  EXPECT_EQ(gates[4], std::nullopt); // a small constant is a tile choice
  EXPECT_EQ(gates[5], std::nullopt); // the name is answered by SizeGateNames
  const semantic::SizeGateNames names(py, {"ModelNew.forward"});
  EXPECT_EQ(names.gateOf("ModelNew.forward", "use_fp8"), std::optional<std::string>("M == 16384"));
  EXPECT_EQ(names.gateOf("ModelNew.forward", "self.big"), std::optional<std::string>("n == 8192"));
  EXPECT_EQ(names.gateOf("_pick", "use_fp8"), std::nullopt); // another function's local
  EXPECT_EQ(names.gateOf("ModelNew.forward", "flag"), std::nullopt);
  const semantic::SizeGateNames none(py, {});
  EXPECT_EQ(none.gateOf("ModelNew.forward", "use_fp8"), std::nullopt); // forward not among the functions
  // A constructor runs before any graded call: its gates count whatever the functions.
  EXPECT_EQ(none.gateOf("ModelNew.forward", "self.big"), std::optional<std::string>("n == 8192"));
}

} // namespace
} // namespace kbaudit
