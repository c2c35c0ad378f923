// The worker's answer is a claim, the judge's verdict is evidence (no torch needed here): claims
// that contradict themselves or the witness are tampering (RUB012, decisive), a judgement takes
// the claims' place and marks them verified, and only a verified pass clears a finding.

#include "kbaudit/annotations/runtime_evidence.h"
#include "kbaudit/runtime/probe.h"

#include "runtime_support.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kbaudit;
using runtime::Judgement;
using runtime::ProbeOutcome;
using runtime::RuntimeReport;

namespace {

ProbeOutcome probe(const std::string &name, const std::string &status, const std::string &rule,
                   std::map<std::string, double> numbers = {}, bool verified = false) {
  ProbeOutcome p;
  p.name = name;
  p.status = status;
  p.rule = rule;
  p.numbers = std::move(numbers);
  p.verified = verified;
  return p;
}

RuntimeReport ranWith(std::vector<ProbeOutcome> probes) {
  RuntimeReport r;
  r.outcome = "ran";
  r.device = "cpu";
  r.probes = std::move(probes);
  return r;
}

/// The worker's usual answer for the four witnessed probes, all passed.
std::vector<ProbeOutcome> allPassed() {
  return {probe("differential", "passed", "PREC001", {{"error_ratio", 1.5}}), probe("memoization", "passed", "MEM001"),
          probe("caller_context", "passed", "RUB001"), probe("call_count", "passed", "RUB004", {{"over_limit", 0.1}})};
}

Judgement judged(std::vector<ProbeOutcome> probes) {
  Judgement j;
  j.answered = true;
  for (ProbeOutcome &p : probes)
    p.verified = true;
  j.probes = std::move(probes);
  return j;
}

int tamperingEvents(const RuntimeReport &r) {
  return static_cast<int>(std::count_if(r.events.begin(), r.events.end(), [](const runtime::RuntimeEvent &e) {
    return e.kind == "tampering" && e.confidence == "high";
  }));
}

const ProbeOutcome *find(const RuntimeReport &r, const std::string &name) { return test::findProbe(r, name); }

rules::RuleResults staticPrec001() {
  rules::RuleResults results;
  rules::Finding f;
  f.rule = "PREC001";
  f.confidence = rules::Confidence::Medium;
  f.lines = {12, 12};
  results.findings.push_back(f);
  return results;
}

} // namespace

TEST(RuntimeJudgement, PassedWithAFailingErrorRatioContradictsItself) {
  // The issue's forged report: `passed`, and its own error ratio 31675.
  const RuntimeReport r = ranWith({probe("differential", "passed", "PREC001", {{"error_ratio", 31675}}),
                                   probe("call_count", "passed", "RUB004", {{"over_limit", 3.0}}),
                                   probe("memoization", "cleared", "MEM001"), probe("aliasing", "passed", "MEM003"),
                                   probe("aliasing", "passed", "MEM003")});
  const std::vector<std::string> problems = runtime::inconsistentClaims(r);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_NE(problems[0].find("3.168e+04"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("call_count"), std::string::npos) << problems[1];
  EXPECT_NE(problems[2].find("'cleared'"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("twice"), std::string::npos) << problems[3];
  EXPECT_TRUE(runtime::inconsistentClaims(ranWith(allPassed())).empty());
}

TEST(RuntimeJudgement, TheJudgesVerdictReplacesTheClaimAndADisagreementIsTampering) {
  RuntimeReport r = ranWith(allPassed());
  Judgement j = judged({probe("differential", "finding", "PREC001", {{"error_ratio", 31675}}),
                        probe("memoization", "passed", "MEM001"), probe("caller_context", "passed", "RUB001"),
                        probe("call_count", "passed", "RUB004")});
  runtime::applyJudgement(r, j);
  const ProbeOutcome *diff = find(r, "differential");
  ASSERT_NE(diff, nullptr);
  EXPECT_EQ(diff->status, "finding");
  EXPECT_TRUE(diff->verified);
  EXPECT_DOUBLE_EQ(diff->numbers.at("error_ratio"), 31675);
  EXPECT_TRUE(find(r, "memoization")->verified);
  ASSERT_EQ(tamperingEvents(r), 1);
  EXPECT_NE(r.events[0].detail.find("differential passed"), std::string::npos) << r.events[0].detail;
  // The tampering is decisive evidence for RUB012; the judged PREC001 confirms the static finding.
  rules::RuleResults results = staticPrec001();
  annotations::applyRuntime(results, r);
  bool rub012 = false;
  for (const rules::Finding &f : results.findings) {
    if (f.rule == "PREC001") {
      EXPECT_EQ(f.confidence, rules::Confidence::High);
    }
    rub012 |= f.rule == "RUB012" && f.confidence == rules::Confidence::High;
  }
  EXPECT_TRUE(rub012);
}

TEST(RuntimeJudgement, ADisagreementNearTheLimitIsNoTampering) {
  // Two processes' references may round differently: a verdict the judge calls near its limit
  // replaces the claim without accusing anyone.
  RuntimeReport r = ranWith(allPassed());
  Judgement j = judged({probe("differential", "finding", "PREC001", {{"error_ratio", 70}}),
                        probe("memoization", "passed", "MEM001"), probe("caller_context", "passed", "RUB001"),
                        probe("call_count", "passed", "RUB004")});
  j.nearLimit = {"differential"};
  runtime::applyJudgement(r, j);
  EXPECT_EQ(find(r, "differential")->status, "finding");
  EXPECT_EQ(tamperingEvents(r), 0);
}

TEST(RuntimeJudgement, AClaimWithoutAWitnessIsTamperingUnlessItWasOverTheBudget) {
  RuntimeReport r = ranWith(allPassed());
  Judgement j = judged({probe("differential", "passed", "PREC001"), probe("caller_context", "passed", "RUB001")});
  j.unverified["call_count"] = "the witness budget (256 MiB) is spent";
  runtime::applyJudgement(r, j);
  // memoization: claimed, never witnessed; call_count: too large to witness, so merely unverified.
  EXPECT_EQ(tamperingEvents(r), 1);
  EXPECT_NE(r.events[0].detail.find("memoization"), std::string::npos) << r.events[0].detail;
  EXPECT_FALSE(find(r, "memoization")->verified);
  EXPECT_FALSE(find(r, "call_count")->verified);
  EXPECT_TRUE(find(r, "differential")->verified);
  EXPECT_TRUE(std::any_of(r.notes.begin(), r.notes.end(),
                          [](const std::string &n) { return n.find("call_count is not verified") == 0; }));
}

TEST(RuntimeJudgement, AMalformedWitnessIsTamperingAndVerifiesNothing) {
  RuntimeReport r = ranWith(allPassed());
  Judgement j;
  j.answered = true;
  j.witnessError = "the witness has no setup record";
  runtime::applyJudgement(r, j);
  EXPECT_EQ(tamperingEvents(r), 1);
  for (const ProbeOutcome &p : r.probes)
    EXPECT_FALSE(p.verified) << p.name;
}

TEST(RuntimeJudgement, WithoutAJudgementNothingIsVerifiedAndNothingIsAccused) {
  RuntimeReport r = ranWith(allPassed());
  Judgement j;
  j.answered = true;
  j.failure = "the judge's time budget ran out";
  runtime::applyJudgement(r, j);
  EXPECT_EQ(tamperingEvents(r), 0);
  for (const ProbeOutcome &p : r.probes)
    EXPECT_FALSE(p.verified) << p.name;
  EXPECT_FALSE(r.notes.empty());
}

TEST(RuntimeJudgement, OnlyAVerifiedPassClearsAFinding) {
  rules::RuleResults claimed = staticPrec001();
  annotations::applyRuntime(claimed, ranWith({probe("differential", "passed", "PREC001", {{"error_ratio", 1}})}));
  EXPECT_EQ(claimed.findings[0].confidence, rules::Confidence::Medium) << "a pass only the worker reports cleared it";
  rules::RuleResults verified = staticPrec001();
  annotations::applyRuntime(verified,
                            ranWith({probe("differential", "passed", "PREC001", {{"error_ratio", 1}}, true)}));
  EXPECT_EQ(verified.findings[0].confidence, rules::Confidence::Low);
  EXPECT_NE(verified.findings[0].evidence.find("judged outside the solution's process"), std::string::npos);
}

TEST(RuntimeJudgement, TheJudgesAnswerIsFramedAndNamesItsRole) {
  const std::string nonce = "0123456789abcdef0123456789abcdef";
  const std::string body = R"({"nonce": ")" + nonce +
                           R"(", "role": "judge", "probes": [{"name": "differential", "status": "passed", "check": )"
                           R"("", "reason": "", "numbers": {"error_ratio": 1.0}, "near_limit": true}], )"
                           R"("unverified": {"call_count": "budget"}, "notes": []})";
  Judgement j;
  std::string why;
  ASSERT_TRUE(runtime::parseJudgement("KBAUDIT-ANSWER " + nonce + " " + std::to_string(body.size()) + "\n" + body,
                                      nonce, j, why))
      << why;
  ASSERT_EQ(j.probes.size(), 1u);
  EXPECT_TRUE(j.probes[0].verified);
  EXPECT_EQ(j.nearLimit, std::vector<std::string>{"differential"});
  EXPECT_EQ(j.unverified.at("call_count"), "budget");
  // A worker's answer is not a judgement, even with the right nonce.
  std::string worker = body;
  worker.replace(worker.find("\"judge\""), 7, "\"probe\"");
  Judgement w;
  EXPECT_FALSE(runtime::parseJudgement(
      "KBAUDIT-ANSWER " + nonce + " " + std::to_string(worker.size()) + "\n" + worker, nonce, w, why));
}
