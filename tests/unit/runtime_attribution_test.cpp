// Which rule a probe outcome or runtime event speaks to comes from the rules' metadata
// (`runtime:` in rules/*/*.yaml) alone: probes and the judge report what they observed, and a
// rule id a worker writes into its answer is not read.

#include "kbaudit/annotations/runtime_evidence.h"
#include "kbaudit/rules/runtime_links.h"
#include "kbaudit/runtime/probe.h"

#include "runtime_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace kbaudit;
using runtime::ProbeOutcome;
using runtime::RuntimeReport;

namespace {

ProbeOutcome outcome(const std::string &name, const std::string &status, const std::string &check = "") {
  ProbeOutcome p;
  p.name = name;
  p.status = status;
  p.check = check;
  return p;
}

RuntimeReport attributed(std::vector<ProbeOutcome> probes) {
  RuntimeReport r;
  r.outcome = "ran";
  r.device = "cpu";
  r.probes = std::move(probes);
  runtime::attributeProbes(r);
  return r;
}

std::string ruleOf(const RuntimeReport &r, const std::string &name) {
  const ProbeOutcome *p = test::findProbe(r, name);
  return p ? p->rule : "<no such probe>";
}

} // namespace

TEST(RuntimeAttribution, EachObservationNamesTheRuleWhoseMetadataListsIt) {
  const std::map<std::pair<std::string, std::string>, std::string> expected = {
      {{"differential", ""}, "PREC001"},          {{"memoization", ""}, "MEM001"},
      {{"timing", "fresh-inputs"}, "MEM001"},     {{"timing", "device-sync"}, "TIME001"},
      {{"adversarial", "scaled-inputs"}, "PREC005"}, {{"adversarial", "input-regime"}, "RUB006"},
      {{"global_state", "torch-replaced"}, "RUB003"}, {{"global_state", ""}, "PREC002"},
      {{"uninitialized_output", ""}, "MEM002"},  {{"aliasing", ""}, "MEM003"},
      {{"kernel_ablation", ""}, "WRAP001"},      {{"parameters", ""}, "RUB008"},
      // Observations that are evidence for no rule: a stored result is wrong, not imprecise; a
      // timing or adversarial pass answers neither of the probe's two questions by itself.
      {{"differential", "stored-result"}, ""},   {{"memoization", "stored-result"}, ""},
      {{"parameters", "lacks-parameters"}, ""},  {{"timing", ""}, ""}, {{"adversarial", ""}, ""},
      {{"no_such_probe", ""}, ""}};
  for (const auto &[key, rule] : expected) {
    const RuntimeReport r = attributed({outcome(key.first, "finding", key.second)});
    EXPECT_EQ(ruleOf(r, key.first), rule) << key.first << "/" << key.second;
  }
}

TEST(RuntimeAttribution, AWorkersRuleIsNotReadAndAnUndecidedProbeSpeaksToNoRule) {
  ProbeOutcome forged = outcome("differential", "finding");
  forged.rule = "WRAP001"; // what a worker might claim; the catalogue decides
  ProbeOutcome skipped = outcome("memoization", "skipped");
  skipped.rule = "MEM001";
  const RuntimeReport r = attributed({forged, skipped, outcome("call_count", "error")});
  EXPECT_EQ(ruleOf(r, "differential"), "PREC001");
  EXPECT_EQ(ruleOf(r, "memoization"), "");
  EXPECT_EQ(ruleOf(r, "call_count"), "");
}

TEST(RuntimeAttribution, UnwrittenOutputIsTheOneCauseOfEveryNumericFinding) {
  // Stale memory can make the output wrong on plain inputs (differential) or only on the scaled
  // ones (adversarial, when the allocator hands back a buffer holding an earlier right answer):
  // one cause, one rule, MEM002 (its `explains`). A finding of another kind keeps its rule.
  const RuntimeReport r = attributed({outcome("differential", "finding"), outcome("memoization", "passed"),
                                      outcome("adversarial", "finding", "scaled-inputs"),
                                      outcome("other_shapes", "finding"), outcome("uninitialized_output", "finding"),
                                      outcome("global_state", "finding")});
  rules::RuleResults results;
  annotations::applyRuntime(results, r);
  std::vector<std::string> found;
  for (const rules::Finding &f : results.findings)
    found.push_back(f.rule);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{"MEM002", "PREC002"}));
  for (const char *name : {"differential", "adversarial", "other_shapes"}) {
    EXPECT_EQ(ruleOf(r, name), "") << name;
    EXPECT_NE(test::findProbe(r, name)->reason.find("uninitialized output (MEM002)"), std::string::npos) << name;
  }
  EXPECT_EQ(ruleOf(r, "memoization"), "MEM001") << "a pass is no consequence";
}

TEST(RuntimeAttribution, WithoutUnwrittenOutputANumericFindingKeepsItsRule) {
  const RuntimeReport r = attributed({outcome("differential", "passed"), outcome("adversarial", "finding", "scaled-inputs"),
                                      outcome("uninitialized_output", "passed")});
  EXPECT_EQ(ruleOf(r, "adversarial"), "PREC005");
  EXPECT_EQ(test::findProbe(r, "adversarial")->reason.find("explained by"), std::string::npos);
}

TEST(RuntimeAttribution, AVerifiedPassClearsOnlyTheRulesItAnswers) {
  // aliasing can confirm MEM003 but no rule lists it in cleared_by: storage sharing that no
  // witnessed output can show is not disproved by a pass.
  for (const auto &[probe, rule, clears] : std::vector<std::tuple<std::string, std::string, bool>>{
           {"differential", "PREC001", true}, {"memoization", "MEM001", true}, {"aliasing", "MEM003", false}}) {
    rules::RuleResults results;
    rules::Finding f;
    f.rule = rule;
    f.confidence = rules::Confidence::Medium;
    f.lines = {3, 3};
    results.findings.push_back(f);
    RuntimeReport r = attributed({outcome(probe, "passed")});
    r.probes[0].verified = true;
    annotations::applyRuntime(results, r);
    EXPECT_EQ(results.findings[0].confidence == rules::Confidence::Low, clears) << probe;
  }
}

TEST(RuntimeLinks, EveryObservationAndEventKindSpeaksToOneRuleAtMost) {
  std::map<std::string, std::string> confirmed, events;
  for (const rules::RuleMeta &m : rules::catalogue()) {
    for (const std::string &c : m.runtime.confirmedBy)
      EXPECT_TRUE(confirmed.emplace(c, m.id).second) << c << " confirms " << confirmed[c] << " and " << m.id;
    for (const std::string &e : m.runtime.events)
      EXPECT_TRUE(events.emplace(e, m.id).second) << e << " is evidence for " << events[e] << " and " << m.id;
  }
  EXPECT_GE(confirmed.size(), 14u);
  EXPECT_EQ(rules::ruleForEvent("grader-changed")->id, "RUB002");
  EXPECT_EQ(rules::ruleForEvent("write-outside"), nullptr);
}

TEST(RuntimeLinks, TheYamlIsCheckedWhenParsed) {
  const std::string head = "id: MEM009\nname: x\ncategory: MEM\nverdict: review\nconfidence: low\nterm: correctness\n"
                           "message: m\nsummary: s\nimplication: i\nconsequence: c\ndecisive_when: d\nrationale: r\n";
  const rules::RuleMeta ok =
      rules::parseRuleMeta(head + "runtime:\n  confirmed_by: [probe_a, probe_b/seen]\n  cleared_by: [probe_a]\n"
                                  "  explains: [probe_c]\n  events: [kind-x]\n");
  EXPECT_EQ(ok.runtime.confirmedBy, (std::vector<std::string>{"probe_a", "probe_b/seen"}));
  EXPECT_EQ(ok.runtime.clearedBy, std::vector<std::string>{"probe_a"});
  EXPECT_EQ(ok.runtime.explains, std::vector<std::string>{"probe_c"});
  EXPECT_EQ(ok.runtime.events, std::vector<std::string>{"kind-x"});
  EXPECT_TRUE(rules::parseRuleMeta(head).runtime.empty());
  // A misspelt key, or a probe that clears what it cannot confirm, is a build error, not a
  // link that silently never applies.
  EXPECT_THROW(rules::parseRuleMeta(head + "runtime:\n  cleared_by_: [probe_a]\n"), std::runtime_error);
  EXPECT_THROW(rules::parseRuleMeta(head + "runtime:\n  cleared_by: [probe_a]\n"), std::runtime_error);
  EXPECT_THROW(rules::parseRuleMeta(head + "runtime: [probe_a]\n"), std::runtime_error);
}
