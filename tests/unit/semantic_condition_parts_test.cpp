// A branch condition's comparisons come apart at its top-level operators, and each side is read
// from a syntax tree: a name in a string literal or a comment of the condition is not read.

#include "kbaudit/semantic/condition_parts.h"
#include "kbaudit/semantic/expr_query.h"

#include <gtest/gtest.h>

namespace kbaudit::semantic {
namespace {

TEST(SemanticConditionParts, SplitsAtBooleanOperatorsAndFoldsNegation) {
  const std::vector<ConditionComparison> cs =
      conditionComparisons("not (x is self._last) or k not in self.cache and id(y) == self._id");
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(cs[0].op, "is");
  EXPECT_TRUE(cs[0].negated); // under the `not`
  EXPECT_TRUE(isName(cs[0].left.value, "x"));
  EXPECT_TRUE(reads(cs[0].right.value, "self._last"));
  EXPECT_EQ(cs[1].op, "not in");
  EXPECT_TRUE(cs[1].negated);
  EXPECT_TRUE(cs[1].membership());
  EXPECT_EQ(cs[2].op, "==");
  EXPECT_FALSE(cs[2].negated);
  EXPECT_TRUE(reads(cs[2].left.value, "id"));
  EXPECT_TRUE(reads(cs[2].left.value, "y"));
}

TEST(SemanticConditionParts, OperatorsInsideStringsAndCommentsDoNotSplit) {
  const std::vector<ConditionComparison> cs = conditionComparisons("(mode == \"a is b\"  # x is y\n)");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].op, "==");
  EXPECT_TRUE(isName(cs[0].left.value, "mode"));
  EXPECT_EQ(cs[0].right.value.kind, py::ExprKind::String);
  EXPECT_FALSE(reads(cs[0].right.value, "b"));
}

TEST(SemanticConditionParts, KeywordOperatorsOverLineBreaks) {
  const std::vector<ConditionComparison> cs = conditionComparisons("(x\n    is not\n    self._x)");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].op, "is not");
  EXPECT_TRUE(cs[0].identityOperator());
}

TEST(SemanticConditionParts, OperandKeepsItsCallsWithFoldedArguments) {
  const Operand o = operandOf("getattr(self, \"_last\", None)  # cached");
  EXPECT_EQ(o.value.kind, py::ExprKind::Call);
  ASSERT_EQ(o.calls.size(), 1u);
  const py::Argument *name = o.calls[0].positionalArg(1);
  ASSERT_NE(name, nullptr);
  ASSERT_TRUE(name->value.string.has_value());
  EXPECT_EQ(name->value.string->value, "_last");
}

TEST(SemanticConditionParts, NotAnExpressionGivesNothing) {
  EXPECT_EQ(operandOf("x +").value.kind, py::ExprKind::Other);
  EXPECT_TRUE(operandOf("x +").value.names.empty());
  EXPECT_TRUE(conditionComparisons("").empty());
  EXPECT_TRUE(conditionComparisons("flag").empty());
}

} // namespace
} // namespace kbaudit::semantic
