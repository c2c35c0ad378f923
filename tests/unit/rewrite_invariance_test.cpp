// Rewrite invariance: every rule fixture, rewritten without changing what the program does
// (tests/rewrites/rewrite.py: line endings, misleading comments, reformatting, renamed helpers,
// aliased imports, the entry point's body moved into a helper, long strings built from pieces,
// dead code of the opposite kind), keeps its verdict under its rule. A firing fixture still fires
// (decisively if it did), a near-miss stays non-decisive. So a new rule gets these tests for free.
//
// Known gaps are listed in tests/rewrites/known_gaps.txt (`RULE fixture.py rewrite  # why`): the
// test fails on a gap not listed, and on a listed gap that no longer occurs (so the list stays
// the truth).

#include "fixture_problem.h"
#include "test_files.h"

#include "kbaudit/facts.h"
#include "kbaudit/rules/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace kbaudit;

namespace {

const fs::path kSource = KBAUDIT_SOURCE_DIR;

enum class Outcome { None, Review, Decisive };

const char *outcomeName(Outcome o) {
  switch (o) {
  case Outcome::None: return "no finding";
  case Outcome::Review: return "review";
  case Outcome::Decisive: return "decisive";
  }
  return "?";
}

/// What `rule` says about `text`: decisive when any finding is medium/high.
Outcome outcomeOf(const std::string &rule, const std::string &text, const fs::path &dir) {
  const Facts facts = analyzeSource(SourceFile::fromBytes(text), dir);
  rules::Selection only;
  only.select = {rule};
  const std::optional<problems::ProblemContext> problem = test::fixtureProblem(text);
  const rules::RuleResults results = rules::runRules(rules::CheckContext{facts, problem ? &*problem : nullptr, kbaudit::test::fixtureSuite(text)}, only);
  Outcome o = Outcome::None;
  for (const rules::Finding &f : results.findings)
    if (f.rule == rule)
      o = std::max(o, f.confidence == rules::Confidence::Low ? Outcome::Review : Outcome::Decisive);
  return o;
}

struct Variant {
  std::string rule, fixture, rewrite;
  fs::path path;
};

/// The rewritten fixtures of one rule, from one run of the generator (ctest runs each rule's
/// test in its own process); `error` says why there are none (python3 missing).
struct Generated {
  test::TempDir dir;
  std::vector<Variant> variants;
  std::string error;
};

void generate(const std::string &rule, Generated &out) {
  std::string cmd = "python3 " + (kSource / "tests" / "rewrites" / "rewrite.py").string() + " " + out.dir.path().string();
  for (const auto &file : fs::directory_iterator(kSource / "tests" / "fixtures" / rule))
    if (file.path().extension() == ".py")
      cmd += " " + file.path().string();
  cmd += " 2>&1";
  FILE *pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) {
    out.error = "cannot start python3";
    return;
  }
  std::string text;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe))
    text.append(buf, n);
  if (const int status = ::pclose(pipe); status != 0) {
    out.error = "tests/rewrites/rewrite.py failed (status " + std::to_string(status) + "): " + text.substr(0, 2000);
    return;
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');)
      cols.push_back(c);
    if (cols.size() == 4)
      out.variants.push_back({cols[0], cols[1], cols[2], cols[3]});
  }
}

/// `RULE fixture rewrite` lines of tests/rewrites/known_gaps.txt.
std::set<std::string> knownGaps() {
  std::set<std::string> out;
  std::istringstream in(test::readFile(kSource / "tests" / "rewrites" / "known_gaps.txt"));
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string rule, fixture, rewrite;
    if (words >> rule >> fixture >> rewrite)
      out.insert(rule + " " + fixture + " " + rewrite);
  }
  return out;
}

std::vector<std::string> ruleIds() {
  std::vector<std::string> ids;
  for (const auto &dir : fs::directory_iterator(kSource / "tests" / "fixtures"))
    ids.push_back(dir.path().filename().string());
  std::sort(ids.begin(), ids.end());
  return ids;
}

class RewriteInvariance : public ::testing::TestWithParam<std::string> {};

TEST_P(RewriteInvariance, VerdictSurvivesEveryRewrite) {
  const std::string &rule = GetParam();
  Generated g;
  generate(rule, g);
  if (!g.error.empty())
    GTEST_SKIP() << g.error;
  const std::set<std::string> gaps = knownGaps();
  std::map<std::string, Outcome> original;
  unsigned checked = 0;
  for (const Variant &v : g.variants) {
    if (v.rule != rule)
      continue;
    const fs::path fixture = kSource / "tests" / "fixtures" / rule / v.fixture;
    if (!original.count(v.fixture))
      original[v.fixture] = outcomeOf(rule, test::readFile(fixture), fixture.parent_path());
    const Outcome before = original[v.fixture];
    const Outcome after = outcomeOf(rule, test::readFile(v.path), fixture.parent_path());
    const bool bad = v.fixture.rfind("bad_", 0) == 0;
    // A firing fixture keeps firing at least as strongly; a near-miss never becomes decisive.
    const bool holds = bad ? after >= before : (after != Outcome::Decisive || before == Outcome::Decisive);
    const std::string key = rule + " " + v.fixture + " " + v.rewrite;
    ++checked;
    if (gaps.count(key))
      EXPECT_FALSE(holds) << key << " is listed in tests/rewrites/known_gaps.txt but holds now: remove it";
    else
      EXPECT_TRUE(holds) << key << ": " << outcomeName(before) << " before the rewrite, " << outcomeName(after)
                         << " after (" << v.path << ")";
  }
  EXPECT_GT(checked, 0u) << rule << " has no rewritten fixture";
}

INSTANTIATE_TEST_SUITE_P(Rules, RewriteInvariance, ::testing::ValuesIn(ruleIds()),
                         [](const ::testing::TestParamInfo<std::string> &p) { return p.param; });

} // namespace
