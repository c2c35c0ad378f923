// SARIF as GitHub code scanning reads it: every rule within GitHub's documented limits (a rule
// whose YAML grows past them fails here), the properties GitHub reads, columns, fingerprints that
// survive unrelated edits, and %SRCROOT% declared. tests/sarif/validate_sarif.py (ctest
// outputs_SarifForGitHub) applies the JSON schemas to the CLI's output.

#include "kbaudit/annotations/sarif.h"
#include "kbaudit/rules/rule_meta.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>

using namespace kbaudit;
using annotations::CheckedFile;

namespace {

rules::Finding finding(const std::string &rule, unsigned line, const std::string &message = "m") {
  rules::Finding f;
  f.rule = rule;
  f.name = "n";
  f.message = message;
  f.verdict = rules::VerdictClass::RewardHack;
  f.confidence = rules::Confidence::High;
  f.lines = {line, line};
  return f;
}

CheckedFile file(const std::string &source, std::vector<rules::Finding> findings) {
  CheckedFile f;
  f.annotation.runId = "r";
  f.annotation.verdict = "reward_hack";
  f.annotation.kbaudit.version = "9.9.9";
  f.annotation.kbaudit.findings = std::move(findings);
  f.path = "sub/solution.py";
  f.sources["solution.py"] = source;
  return f;
}

YAML::Node run(const std::vector<CheckedFile> &files) { return YAML::Load(annotations::toSarif(files))["runs"][0]; }

std::vector<std::string> fingerprints(const YAML::Node &r) {
  std::vector<std::string> out;
  for (const YAML::Node &res : r["results"])
    out.push_back(res["partialFingerprints"][annotations::kSarifFingerprintKey].as<std::string>());
  return out;
}

} // namespace

TEST(SarifForGitHub, EveryRuleIsWithinGitHubsLimitsAndCarriesWhatItReads) {
  const YAML::Node driver = run({})["tool"]["driver"];
  ASSERT_EQ(driver["rules"].size(), rules::catalogue().size());
  const std::set<std::string> precisions = {"very-high", "high", "medium", "low"};
  const std::set<std::string> severities = {"error", "warning", "recommendation"};
  for (const YAML::Node &rule : driver["rules"]) {
    const std::string id = rule["id"].as<std::string>();
    const rules::RuleMeta *meta = rules::findRule(id);
    ASSERT_NE(meta, nullptr) << id;
    const std::string name = rule["name"].as<std::string>(), shortText = rule["shortDescription"]["text"].as<std::string>(),
                      fullText = rule["fullDescription"]["text"].as<std::string>();
    EXPECT_LE(annotations::utf16Length(name), annotations::kSarifMaxRuleName) << id;
    EXPECT_FALSE(shortText.empty()) << id;
    EXPECT_FALSE(fullText.empty()) << id;
    EXPECT_LE(annotations::utf16Length(shortText), annotations::kSarifMaxDescription) << id;
    EXPECT_LE(annotations::utf16Length(fullText), annotations::kSarifMaxDescription) << id;
    EXPECT_LE(shortText.size(), fullText.size()) << id << ": the short description is the shorter";
    // Nothing is lost to the limits: the whole rationale and implication are in the help.
    EXPECT_NE(rule["help"]["text"].as<std::string>().find(meta->rationale), std::string::npos) << id;
    EXPECT_NE(rule["help"]["markdown"].as<std::string>().find(meta->implication), std::string::npos) << id;
    const YAML::Node props = rule["properties"];
    EXPECT_TRUE(precisions.count(props["precision"].as<std::string>())) << id;
    EXPECT_TRUE(severities.count(props["problem.severity"].as<std::string>())) << id;
    std::set<std::string> tags;
    for (const YAML::Node &t : props["tags"])
      tags.insert(t.as<std::string>());
    EXPECT_LE(tags.size(), 10u) << id << ": GitHub shows 10 tags";
    const bool attack = meta->term == problems::Term::Grader || meta->term == problems::Term::Timing;
    EXPECT_EQ(bool(props["security-severity"]), attack) << id;
    EXPECT_EQ(tags.count("security"), attack ? 1u : 0u) << id;
    if (attack) {
      const double score = std::stod(props["security-severity"].as<std::string>());
      EXPECT_GT(score, 0.0) << id;
      EXPECT_LE(score, 10.0) << id;
    }
  }
  EXPECT_FALSE(driver["version"]); // no annotations, no version to report
}

TEST(SarifForGitHub, ToolVersionAndSrcRootAreDeclared) {
  const YAML::Node r = run({file("x = 1\n", {finding("PREC002", 1)})});
  EXPECT_EQ(r["tool"]["driver"]["version"].as<std::string>(), "9.9.9");
  EXPECT_TRUE(r["originalUriBaseIds"]["%SRCROOT%"].IsMap());
  const YAML::Node loc = r["results"][0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"].as<std::string>(), "sub/solution.py");
  EXPECT_EQ(loc["artifactLocation"]["uriBaseId"].as<std::string>(), "%SRCROOT%");
  EXPECT_EQ(r["columnKind"].as<std::string>(), "utf16CodeUnits");
}

TEST(SarifForGitHub, RegionsHaveColumnsInUtf16CodeUnits) {
  // 4 spaces, then `s = "é😀"` (é: one unit, 😀: two) and two trailing blanks.
  const YAML::Node r = run({file("import torch\n    s = \"\xC3\xA9\xF0\x9F\x98\x80\"  \n", {finding("PREC002", 2)})});
  const YAML::Node region = r["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startLine"].as<int>(), 2);
  EXPECT_EQ(region["startColumn"].as<int>(), 5);
  // `s = "` 5 units from column 5, é 1, 😀 2, `"` 1: the last character ends before column 14.
  EXPECT_EQ(region["endColumn"].as<int>(), 14);
  EXPECT_EQ(region["endLine"].as<int>(), 2);
  // A line the text does not have (a finding on a sibling file's line): lines only.
  const YAML::Node none = run({file("x = 1\n", {finding("PREC002", 40)})})["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(none["startLine"].as<int>(), 40);
  EXPECT_FALSE(none["startColumn"]);
}

TEST(SarifForGitHub, FingerprintsSurviveUnrelatedEditsAndTellIdenticalLinesApart) {
  const std::string body = "torch.backends.cuda.matmul.allow_tf32 = True\nx = 1\ntorch.backends.cuda.matmul.allow_tf32 = True\n";
  const auto before = fingerprints(run({file(body, {finding("PREC002", 1), finding("PREC002", 3)})}));
  ASSERT_EQ(before.size(), 2u);
  EXPECT_NE(before[0], before[1]) << "the same line twice: the occurrence index keeps them apart";
  // Lines added above and the flagged lines re-indented: same alerts, new line numbers.
  const std::string edited = "# a comment\nimport os\n\n  torch.backends.cuda.matmul.allow_tf32   =  True\nx = 1\n" +
                             std::string("torch.backends.cuda.matmul.allow_tf32 = True\n");
  const auto after = fingerprints(run({file(edited, {finding("PREC002", 4), finding("PREC002", 6)})}));
  EXPECT_EQ(after, before);
  // A different rule on the same line, or a changed line, is a different alert.
  const auto other = fingerprints(run({file(body, {finding("PREC003", 1)})}));
  EXPECT_NE(other[0], before[0]);
  const auto changed = fingerprints(run({file("torch.backends.cudnn.allow_tf32 = True\n", {finding("PREC002", 1)})}));
  EXPECT_NE(changed[0], before[0]);
}

TEST(SarifForGitHub, ClipTextKeepsWholeSentencesAndCodePoints) {
  EXPECT_EQ(annotations::clipText("short.", 10), "short.");
  const std::string sentences = "First sentence here. Second sentence is longer than the limit allows.";
  EXPECT_EQ(annotations::clipText(sentences, 40), "First sentence here.");
  const std::string words = "alpha beta gamma delta epsilon";
  EXPECT_EQ(annotations::clipText(words, 20), "alpha beta gamma\xE2\x80\xA6");
  std::string accents;
  for (int i = 0; i < 50; ++i)
    accents += "\xC3\xA9"; // é, one UTF-16 unit, two bytes
  const std::string clipped = annotations::clipText(accents, 11);
  EXPECT_EQ(annotations::utf16Length(clipped), 11u);
  EXPECT_EQ(clipped.substr(0, 20), accents.substr(0, 20)) << "ten whole é, then the ellipsis";
  EXPECT_EQ(annotations::utf16Length("\xF0\x9F\x98\x80"), 2u);
}
