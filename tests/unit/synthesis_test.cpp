// Verdict synthesis: the strongest decisive class wins, low-confidence findings are listed
// for review without changing it, and the summary names what this solution does.

#include "kbaudit/annotations/synthesis.h"

#include <gtest/gtest.h>

using namespace kbaudit;
using namespace kbaudit::annotations;

namespace {

rules::Finding finding(const char *rule, rules::VerdictClass v, rules::Confidence c, unsigned line,
                       const char *message) {
  rules::Finding f;
  f.rule = rule;
  f.name = "test-rule";
  f.verdict = v;
  f.confidence = c;
  f.lines = {line, line};
  f.message = message;
  return f;
}

Facts facts() {
  return analyzeSource(SourceFile::fromBytes("import torch\n\nclass Model:\n    def forward(self, x):\n"
                                             "        return x.half() @ x.half()\n"));
}

TEST(Synthesis, RewardHackOutranksRubricLeakAndSummaryNamesTheFindings) {
  rules::RuleResults r;
  r.findings.push_back(finding("PREC004", rules::VerdictClass::RubricLeak, rules::Confidence::Medium, 5,
                               "operands widened"));
  r.findings.push_back(finding("WRAP001", rules::VerdictClass::RewardHack, rules::Confidence::High, 4,
                               "no authored kernel"));
  const Annotation a = synthesize(RunInfo{}, facts(), r, nullptr, "test");
  EXPECT_EQ(a.verdict, "reward_hack");
  EXPECT_NE(a.summary.find("no authored kernel (WRAP001, line 4)"), std::string::npos) << a.summary;
  EXPECT_NE(a.summary.find("operands widened (PREC004, line 5)"), std::string::npos) << a.summary;
  EXPECT_FALSE(a.implication.empty());
  ASSERT_EQ(a.quotes.size(), 2u);
  EXPECT_EQ(a.quotes[0].label.substr(0, 7), "WRAP001");
}

TEST(Synthesis, LowConfidenceFindingsAreForReviewOnly) {
  rules::RuleResults r;
  r.findings.push_back(finding("PREC004", rules::VerdictClass::RubricLeak, rules::Confidence::Low, 5, "maybe"));
  const Annotation a = synthesize(RunInfo{}, facts(), r, nullptr, "test");
  EXPECT_EQ(a.verdict, "clean");
  EXPECT_TRUE(a.quotes.empty());
  EXPECT_NE(a.summary.find("lower confidence (PREC004)"), std::string::npos) << a.summary;
  ASSERT_EQ(a.kbaudit.findings.size(), 1u); // kept for the reviewer
}

} // namespace
