// PREC001/PREC004 with compiled evidence: the rule fixtures whose verdict rests on what nvcc
// emits. Walks tests/fixtures/<ID>/compiled/*.py (fixtures whose verdict needs the compiled front
// end, so the generic fixture walk, which compiles nothing, leaves them out) and the fixtures of
// tests/fixtures/<ID>/ that carry a `// compiled: <ID>` marker, and audits each with compiling
// on (sm_90a, the torch wheel's headers). Markers as in rule_fixtures_test.cpp, plus
// `// compiled: <ID>`: the finding on that line rests on compiled evidence (its evidence quotes
// the compiled instruction). Every CUDA unit of these fixtures must compile: a fixture that did
// not would be judged on source facts and prove nothing. Skipped, saying why, without nvcc or
// torch's headers.

#include "compiled_support.h"
#include "fixture_problem.h"
#include "test_files.h"

#include "kbaudit/facts.h"
#include "kbaudit/rules/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace kbaudit;

namespace {

const char *const kRules[] = {"PREC001", "PREC004"};

struct Fixture {
  std::string rule;
  fs::path path;
};

void PrintTo(const Fixture &fx, std::ostream *os) { *os << fx.rule << "/" << fx.path.filename().string(); }

std::vector<Fixture> compiledFixtures() {
  std::vector<Fixture> out;
  const fs::path root = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "fixtures";
  for (const char *rule : kRules) {
    for (const fs::path dir : {root / rule, root / rule / "compiled"}) {
      std::error_code ec;
      for (const auto &file : fs::directory_iterator(dir, ec)) {
        if (file.path().extension() != ".py")
          continue;
        const bool subdir = dir.filename() == "compiled";
        if (subdir || test::readFile(file.path()).find(std::string("// compiled: ") + rule) != std::string::npos)
          out.push_back({rule, file.path()});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Fixture &a, const Fixture &b) { return a.path < b.path; });
  return out;
}

std::set<unsigned> marked(const std::string &text, const std::string &rule, const char *kind) {
  std::set<unsigned> lines;
  const std::regex marker(std::string("(#|//) ") + kind + ": ([A-Z]+[0-9]+)");
  std::istringstream in(text);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    for (std::sregex_iterator it(line.begin(), line.end(), marker), end; it != end; ++it)
      if ((*it)[2] == rule)
        lines.insert(n);
  return lines;
}

/// Why the compiled fixtures cannot run here, "" when they can.
std::string cannotCompile() {
  if (std::string why = test::noNvcc(); !why.empty())
    return why;
  const fs::path venv = fs::path(KBAUDIT_SOURCE_DIR) / ".venv";
  std::error_code ec;
  if (!std::getenv("KBAUDIT_TORCH_INCLUDE") && !fs::exists(venv / "lib", ec))
    return "no torch headers (no .venv; KBAUDIT_STATIC_ONLY setups skip it): torch extension sources cannot be compiled";
  return {};
}

class CompiledFixture : public ::testing::TestWithParam<Fixture> {};

TEST_P(CompiledFixture, FindingsMatchMarkersWithCompiledEvidence) {
  if (const std::string why = cannotCompile(); !why.empty())
    GTEST_SKIP() << why;
  const Fixture &fx = GetParam();
  const std::string text = test::readFile(fx.path);
  AnalysisOptions options;
  options.compile.emplace();
  options.compile->arch = "sm_90a";
  options.compile->archReason = "the test";
  options.compile->timeoutSeconds = 600; // a cold torch extension compile on a busy 2-core machine
  // Shared by the test processes (entries are renamed into place): a rerun does not recompile.
  options.compile->cacheDir = fs::path(KBAUDIT_BINARY).parent_path() / "test-compile-cache";
  const Facts facts = analyzeSource(SourceFile::fromBytes(text), fx.path.parent_path(), options);
  ASSERT_TRUE(facts.compiled.attempted);
  unsigned compiledUnits = 0;
  for (const compiled::CompiledUnit &u : facts.compiled.units) {
    if (u.status == compiled::UnitStatus::NotDevice)
      continue;
    ASSERT_EQ(u.status, compiled::UnitStatus::Compiled) << fx.path.filename() << ": " << u.why;
    ++compiledUnits;
  }
  ASSERT_GT(compiledUnits, 0u) << fx.path.filename() << " has no CUDA source to compile";

  const std::optional<problems::ProblemContext> problem = test::fixtureProblem(text);
  ASSERT_TRUE(problem) << fx.path << ": compiled fixtures name their problem";
  rules::Selection only;
  only.select = {fx.rule};
  const rules::RuleResults results = rules::runRules(rules::CheckContext{facts, &*problem}, only);

  std::set<unsigned> expected = marked(text, fx.rule, "expect");
  const std::set<unsigned> decisive = marked(text, fx.rule, "decisive");
  const std::set<unsigned> review = marked(text, fx.rule, "review");
  const std::set<unsigned> compiledEvidence = marked(text, fx.rule, "compiled");
  expected.insert(decisive.begin(), decisive.end());
  const bool bad = fx.path.filename().string().starts_with("bad_");
  ASSERT_EQ(bad, !expected.empty()) << fx.path << ": bad_ fixtures need markers, good_ fixtures none";

  std::set<unsigned> covered, coveredDecisively, coveredCompiled;
  for (const rules::Finding &f : results.findings) {
    bool hit = false;
    for (unsigned line : expected)
      if (f.lines.contains(line)) {
        covered.insert(line);
        hit = true;
        if (f.confidence != rules::Confidence::Low)
          coveredDecisively.insert(line);
      }
    for (unsigned line : review)
      if (f.lines.contains(line)) {
        EXPECT_EQ(f.confidence, rules::Confidence::Low) << fx.path.filename() << ": line " << line;
        covered.insert(line);
        hit = true;
      }
    for (unsigned line : compiledEvidence)
      if (f.lines.contains(line) && f.evidence.find("compiled for sm_90a") != std::string::npos)
        coveredCompiled.insert(line);
    EXPECT_TRUE(hit) << fx.path.filename() << ": unexpected " << f.rule << " finding at lines " << f.lines.begin << "-"
                     << f.lines.end << ": " << f.message << " [" << f.evidence << "]";
  }
  for (unsigned line : expected)
    EXPECT_TRUE(covered.count(line)) << fx.path.filename() << ": line " << line << " not flagged by " << fx.rule;
  for (unsigned line : review)
    EXPECT_TRUE(covered.count(line)) << fx.path.filename() << ": line " << line << " has no review finding";
  for (unsigned line : decisive)
    EXPECT_TRUE(coveredDecisively.count(line)) << fx.path.filename() << ": line " << line << " is not decisive";
  for (unsigned line : compiledEvidence)
    EXPECT_TRUE(coveredCompiled.count(line))
        << fx.path.filename() << ": the finding on line " << line << " does not rest on compiled evidence";
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CompiledFixture, ::testing::ValuesIn(compiledFixtures()),
                         [](const ::testing::TestParamInfo<Fixture> &info) {
                           std::string name = info.param.rule + "_" + info.param.path.stem().string();
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

} // namespace
