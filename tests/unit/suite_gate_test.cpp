// Never weaker than a suite's own gate (issue 36). Every check of every shipped profile's
// `gate:` names rules of the catalogue that answer it (and a test RUB017 knows where the gate's
// own test is broader than the harm), and for every check a fixture the gate itself would refuse,
// tests/gates/<suite>/<check id>.py, gets that answer once the suite has judged the run: a
// decisive finding for a `reject` check, at least a review finding for a `warn` check.

#include "kbaudit/annotations/suite_judgement.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/facts.h"
#include "kbaudit/problems/suite_profile.h"
#include "kbaudit/rules/engine.h"
#include "kbaudit/rules/gate_tests.h"
#include "kbaudit/rules/rule_meta.h"

#include "fixture_problem.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace fs = std::filesystem;
using namespace kbaudit;

namespace {

const fs::path kGates = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "gates";

struct GateCase {
  const problems::SuiteProfile *suite = nullptr;
  const problems::GateCheck *check = nullptr;
};

std::vector<GateCase> allChecks() {
  std::vector<GateCase> out;
  for (const problems::SuiteProfile &p : problems::builtinProfiles())
    for (const problems::GateCheck &c : p.gate)
      out.push_back({&p, &c});
  return out;
}

void PrintTo(const GateCase &c, std::ostream *os) { *os << c.suite->id << "/" << c.check->id; }

bool isKnownKind(std::string_view kind) {
  const auto &kinds = rules::gateTestKinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

/// A RUB017 finding speaks for `check` when its message names the check.
bool speaksFor(const rules::Finding &f, const problems::GateCheck &check) {
  return f.rule != "RUB017" || f.message.find("(" + check.check + ")") != std::string::npos;
}

} // namespace

TEST(SuiteGate, EveryShippedProfileListsItsGate) {
  for (const problems::SuiteProfile &p : problems::builtinProfiles()) {
    EXPECT_FALSE(p.gate.empty()) << p.id << " lists no check of its harness's own gate";
    EXPECT_NE(p.costs.count(problems::Term::SuiteGate), 0u) << p.id << " leaves suite-gate unpriced";
  }
}

TEST(SuiteGate, EveryCheckHasAnAnswerInTheCatalogue) {
  for (const GateCase &g : allChecks()) {
    const problems::GateCheck &c = *g.check;
    const std::string where = g.suite->id + "/" + c.id;
    EXPECT_FALSE(c.answers.empty()) << where << ": no kbaudit answer";
    EXPECT_FALSE(c.source.empty()) << where << ": no source cited";
    for (const std::string &id : c.answers)
      EXPECT_NE(rules::findRule(id), nullptr) << where << ": answer " << id << " is no rule of the catalogue";
    const bool byGate = std::find(c.answers.begin(), c.answers.end(), "RUB017") != c.answers.end();
    EXPECT_EQ(byGate, c.test.has_value()) << where << ": RUB017 answers exactly the checks with a `test`";
    if (c.test) {
      EXPECT_TRUE(isKnownKind(c.test->kind)) << where << ": RUB017 has no test '" << c.test->kind << "'";
    }
  }
}

TEST(SuiteGate, ACheckWithoutAnAnswerIsRefused) {
  const std::string yaml = "id: mine\nversion: 1\nname: Mine\nsummary: s\nsources:\n  - {file: f, says: s}\n"
                           "mandate: none\nterms: {}\nweights: inputs\ngate:\n"
                           "  - {id: a, check: c, action: reject, source: f, says: s, harm: h}\n";
  problems::ProfileError error;
  EXPECT_FALSE(problems::parseSuiteProfile(yaml, "mine.yaml", error));
  EXPECT_EQ(error.key, "gate[0].answers") << error.text();
}

TEST(SuiteGate, EveryGateFixtureBelongsToACheck) {
  std::set<std::string> checks;
  for (const GateCase &g : allChecks())
    checks.insert(g.suite->id + "/" + g.check->id + ".py");
  ASSERT_TRUE(fs::is_directory(kGates));
  for (const auto &suite : fs::directory_iterator(kGates))
    for (const auto &file : fs::directory_iterator(suite.path()))
      EXPECT_TRUE(checks.count(suite.path().filename().string() + "/" + file.path().filename().string()))
          << file.path() << " names no check of its suite's gate";
}

class GateFixture : public ::testing::TestWithParam<GateCase> {};

TEST_P(GateFixture, WhatTheGateRefusesGetsTheAnswer) {
  const problems::SuiteProfile &suite = *GetParam().suite;
  const problems::GateCheck &check = *GetParam().check;
  const fs::path file = kGates / suite.id / (check.id + ".py");
  ASSERT_TRUE(fs::exists(file)) << file << ": no fixture the gate refuses for " << suite.id << "/" << check.id;
  const std::string text = test::readFile(file);
  const Facts facts = analyzeSource(SourceFile::fromBytes(text), file.parent_path());
  std::optional<problems::ProblemContext> problem = test::fixtureProblem(text);
  if (problem)
    problems::applyProfile(*problem, suite);
  rules::RuleResults results = rules::runRules(rules::CheckContext{facts, problem ? &*problem : nullptr, &suite});
  annotations::judgeBySuite(results, suite, "test", {});

  bool answered = false;
  std::string seen;
  for (const rules::Finding &f : results.findings) {
    seen += "\n  " + f.rule + " " + rules::confidenceName(f.confidence) + " line " + std::to_string(f.lines.begin) +
            ": " + f.message;
    if (std::find(check.answers.begin(), check.answers.end(), f.rule) == check.answers.end() || !speaksFor(f, check))
      continue;
    if (check.action == problems::GateAction::Warn || annotations::decisive(f))
      answered = true;
  }
  EXPECT_TRUE(answered) << suite.id << "/" << check.id << " (" << problems::gateActionName(check.action)
                        << "): no " << (check.action == problems::GateAction::Reject ? "decisive " : "")
                        << "finding of its answers in " << file << "; findings:" << seen;
}

INSTANTIATE_TEST_SUITE_P(Gates, GateFixture, ::testing::ValuesIn(allChecks()),
                         [](const ::testing::TestParamInfo<GateCase> &info) {
                           std::string name = info.param.suite->id + "_" + info.param.check->id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });
