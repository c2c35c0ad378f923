// A branch condition's equality, identity and membership comparisons come from the front end's
// structure: negation is folded in, ordering comparisons are left out, and each side is read
// from the syntax tree (a name in a string literal or a comment of the condition is not read).

#include "kbaudit/semantic/condition_parts.h"
#include "kbaudit/semantic/expr_query.h"
#include "python_test_support.h"

namespace kbaudit::semantic {
namespace {

/// The comparisons of `test` written as the test of an `if` on line 1.
std::vector<ConditionComparison> comparisonsOf(const std::string &test) {
  const py::PythonFacts f = py::analyze("if " + test + ":\n    pass\n");
  const py::Branch *b = py::testing::branchAt(f, 1);
  EXPECT_NE(b, nullptr) << test;
  return b ? conditionComparisons(*b) : std::vector<ConditionComparison>{};
}

TEST(SemanticConditionParts, SplitsAtBooleanOperatorsAndFoldsNegation) {
  const std::vector<ConditionComparison> cs =
      comparisonsOf("not (x is self._last) or k not in self.cache and id(y) == self._id");
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
  EXPECT_TRUE(comparisonsOf("not x != y")[0].op == "!=" && !comparisonsOf("not x != y")[0].negated);
}

TEST(SemanticConditionParts, OrderingComparisonsAreLeftOut) {
  const std::vector<ConditionComparison> cs = comparisonsOf("n < LIMIT and x is self._x and 0 <= k < n");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].op, "is");
}

TEST(SemanticConditionParts, OperatorsInsideStringsAndCommentsDoNotSplit) {
  const std::vector<ConditionComparison> cs = comparisonsOf("(mode == \"a is b\"  # x is y\n)");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].op, "==");
  EXPECT_TRUE(isName(cs[0].left.value, "mode"));
  EXPECT_EQ(cs[0].right.value.kind, py::ExprKind::String);
  EXPECT_FALSE(reads(cs[0].right.value, "b"));
}

TEST(SemanticConditionParts, KeywordOperatorsOverLineBreaks) {
  const std::vector<ConditionComparison> cs = comparisonsOf("(x\n    is not\n    self._x)");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].op, "is not");
  EXPECT_TRUE(cs[0].identityOperator());
}

TEST(SemanticConditionParts, OperandKeepsItsCallsWithFoldedArguments) {
  const std::vector<ConditionComparison> cs = comparisonsOf("(getattr(self, \"_last\", None)  # cached\n    is x)");
  ASSERT_EQ(cs.size(), 1u);
  const Operand &o = cs[0].left;
  EXPECT_EQ(o.value.kind, py::ExprKind::Call);
  ASSERT_EQ(o.calls.size(), 1u);
  const py::Argument *name = o.calls[0].positionalArg(1);
  ASSERT_NE(name, nullptr);
  ASSERT_TRUE(name->value.string.has_value());
  EXPECT_EQ(name->value.string->value, "_last");
  EXPECT_TRUE(cs[0].right.calls.empty());
}

TEST(SemanticConditionParts, NoComparisonGivesNothing) {
  EXPECT_TRUE(comparisonsOf("flag").empty());
  EXPECT_TRUE(comparisonsOf("f(a == b)").empty()); // a comparison handed to a call is not the test's
  for (const py::Branch &b : py::analyze("if x + == y:\n    pass\n").branches) // does not parse
    EXPECT_TRUE(conditionComparisons(b).empty()) << b.condition;
}

} // namespace
} // namespace kbaudit::semantic
