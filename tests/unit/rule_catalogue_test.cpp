// The rule conventions: YAML metadata, registered checks, doc pages and fixtures are the
// same set of ids, and the committed doc pages are what the generator produces.

#include "kbaudit/rules/check.h"
#include "kbaudit/rules/engine.h"
#include "kbaudit/rules/rule_meta.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace kbaudit::rules;

namespace {

const fs::path kRoot = KBAUDIT_SOURCE_DIR;

std::set<std::string> yamlIds() {
  std::set<std::string> ids;
  for (const RuleMeta &m : catalogue())
    ids.insert(m.id);
  return ids;
}

TEST(RuleCatalogue, YamlFilesAndRegisteredChecksAreTheSameSet) {
  std::set<std::string> registered;
  for (const auto &check : makeAllChecks())
    EXPECT_TRUE(registered.insert(std::string(check->id())).second) << "registered twice: " << check->id();
  EXPECT_EQ(registered, yamlIds());

  std::set<std::string> onDisk;
  for (const auto &cat : fs::directory_iterator(kRoot / "rules"))
    if (cat.is_directory())
      for (const auto &f : fs::directory_iterator(cat.path()))
        if (f.path().extension() == ".yaml")
          onDisk.insert(f.path().stem().string());
  EXPECT_EQ(onDisk, yamlIds()) << "a YAML file was added without reconfiguring, or not embedded";
}

TEST(RuleCatalogue, EveryRuleHasFlaggedGoodAndNearMissFixtures) {
  for (const RuleMeta &m : catalogue()) {
    bool bad = false, good = false, nearMiss = false;
    for (const RuleExample &ex : m.examples) {
      bad |= ex.bad;
      good |= !ex.bad;
      nearMiss |= ex.file.rfind("good_near_miss", 0) == 0;
    }
    EXPECT_TRUE(bad) << m.id << " has no bad_ fixture";
    EXPECT_TRUE(good) << m.id << " has no good_ fixture";
    EXPECT_TRUE(nearMiss) << m.id << " has no good_near_miss_ fixture";
  }
}

TEST(RuleCatalogue, CommittedDocPagesAreGenerated) {
  for (const RuleMeta &m : catalogue()) {
    const fs::path page = kRoot / "docs" / "rules" / (m.id + ".md");
    std::ifstream in(page);
    ASSERT_TRUE(in) << page << " missing: run `build/kbaudit docs --out docs/rules`";
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str(), renderRuleDoc(m)) << page << " is stale: run `build/kbaudit docs --out docs/rules`";
  }
}

TEST(RuleCatalogue, EveryRuleStatesItsProofOfHarm) {
  // A decisive finding needs the rule's consequence established (docs/adding-a-rule.md,
  // "Proof of harm"); the YAML states that consequence and what establishes it.
  for (const RuleMeta &m : catalogue()) {
    EXPECT_FALSE(m.consequence.empty()) << m.id << " has no consequence";
    EXPECT_FALSE(m.decisiveWhen.empty()) << m.id << " has no decisive_when";
    EXPECT_EQ(m.consequence.find('\n'), std::string::npos) << m.id << ": the consequence is one sentence";
    EXPECT_TRUE(!m.consequence.empty() && m.consequence.back() == '.') << m.id << ": the consequence is one sentence";
    EXPECT_NE(m.consequence, m.decisiveWhen) << m.id;
    const std::string page = renderRuleDoc(m);
    EXPECT_NE(page.find("## Consequence\n"), std::string::npos) << m.id;
    EXPECT_NE(page.find(m.consequence), std::string::npos) << m.id << ": the page omits the consequence";
    EXPECT_NE(page.find("## Decisive when\n"), std::string::npos) << m.id;
    EXPECT_NE(page.find(m.decisiveWhen), std::string::npos) << m.id << ": the page omits decisive_when";
  }
}

TEST(RuleCatalogue, MetadataParserRejectsIncompleteRules) {
  const std::string harm = "consequence: c.\ndecisive_when: d\n";
  EXPECT_THROW(parseRuleMeta("id: X001\nname: x\n"), std::runtime_error);
  EXPECT_THROW(parseRuleMeta("id: PREC9\nname: x\ncategory: WRAP\nverdict: review\nconfidence: low\n"
                             "message: m\nsummary: s\nimplication: i\nrationale: r\n" + harm),
               std::runtime_error);
  const std::string complete = "id: WRAP9\nname: x\ncategory: WRAP\nverdict: rubric_leak\n"
                               "confidence: low\nterm: authored-kernel\nmessage: m {a}\nsummary: s\nimplication: i\n"
                               "rationale: r\n";
  const RuleMeta m = parseRuleMeta(complete + harm);
  EXPECT_EQ(m.verdict, VerdictClass::RubricLeak);
  EXPECT_EQ(m.confidence, Confidence::Low);
  EXPECT_EQ(m.consequence, "c.");
  EXPECT_EQ(m.decisiveWhen, "d");
  EXPECT_EQ(m.term, kbaudit::problems::Term::AuthoredKernel);
  // Every rule names the contract term it breaks, from the suite profiles' vocabulary.
  std::string noTerm = complete;
  noTerm.erase(noTerm.find("term: authored-kernel\n"), 22);
  EXPECT_THROW(parseRuleMeta(noTerm + harm), std::runtime_error);
  std::string badTerm = complete;
  badTerm.replace(badTerm.find("authored-kernel"), 15, "kernel-ness");
  EXPECT_THROW(parseRuleMeta(badTerm + harm), std::runtime_error);
  // Proof of harm is required: a rule without a consequence (or an empty one) is rejected.
  EXPECT_THROW(parseRuleMeta(complete + "decisive_when: d\n"), std::runtime_error);
  EXPECT_THROW(parseRuleMeta(complete + "consequence: \"\"\ndecisive_when: d\n"), std::runtime_error);
  EXPECT_THROW(parseRuleMeta(complete + "consequence: c.\n"), std::runtime_error);
  try {
    parseRuleMeta(complete + "decisive_when: d\n");
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("consequence"), std::string::npos) << e.what();
  }
}

TEST(RuleEngine, SelectionByIdAndCategoryPrefix) {
  Selection s;
  EXPECT_TRUE(s.enabled("WRAP001"));
  s.select = {"PREC"};
  EXPECT_TRUE(s.enabled("PREC002"));
  EXPECT_FALSE(s.enabled("WRAP001"));
  s.ignore = {"PREC002"};
  EXPECT_FALSE(s.enabled("PREC002"));
  EXPECT_TRUE(s.enabled("PREC001"));
}

TEST(RuleEngine, RenderMessageFillsKnownPlaceholdersOnly) {
  EXPECT_EQ(renderMessage("{a} and {b}", {{"a", "x"}}), "x and {b}");
  EXPECT_EQ(renderMessage("unclosed {a", {{"a", "x"}}), "unclosed {a");
}

} // namespace
