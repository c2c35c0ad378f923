// Walks tests/fixtures/<ID>/{bad,good}_*.py: every line marked `# expect: <ID>` (or
// `// expect: <ID>` inside embedded C++) must be covered by a finding of that rule, and
// every finding of that rule must cover a marked line. Good fixtures have no markers, so
// any finding there fails unless its line is marked `# review: <ID>` and the finding is
// low confidence. A `# problem: <name>` line gives the fixture the problem context
// of tests/problems/<name>/ (problem.yaml, reference.py), as `--problem` would, and a
// `# suite: <id>` line grades it by that suite profile's harness, as `--suite` would.

#include "kbaudit/facts.h"
#include "kbaudit/rules/engine.h"

#include "fixture_problem.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <iconv.h>

#include <algorithm>
#include <cstdlib>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace kbaudit;

namespace {

struct Fixture {
  std::string rule;
  fs::path path;
};

std::vector<Fixture> allFixtures() {
  std::vector<Fixture> out;
  const fs::path root = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "fixtures";
  for (const auto &dir : fs::directory_iterator(root)) {
    if (!dir.is_directory())
      continue;
    for (const auto &file : fs::directory_iterator(dir.path()))
      if (file.path().extension() == ".py")
        out.push_back({dir.path().filename().string(), file.path()});
  }
  std::sort(out.begin(), out.end(), [](const Fixture &a, const Fixture &b) { return a.path < b.path; });
  return out;
}


std::set<unsigned> markedLines(const std::string &text, const std::string &rule, const char *kind = "expect") {
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

// Readable test names in failure output instead of a byte dump.
void PrintTo(const Fixture &fx, std::ostream *os) { *os << fx.path.filename().string(); }

class RuleFixture : public ::testing::TestWithParam<Fixture> {};

TEST_P(RuleFixture, FindingsMatchMarkers) {
  const Fixture &fx = GetParam();
  const std::string text = kbaudit::test::readFile(fx.path);
  // `# decisive: ID` is an expect marker whose finding must be decisive (medium or high): the
  // fixture shows the harm the rule's YAML claims, so it must not slip to review.
  const std::set<unsigned> decisive = markedLines(text, fx.rule, "decisive");
  std::set<unsigned> expected = markedLines(text, fx.rule);
  expected.insert(decisive.begin(), decisive.end());
  // `# review: ID` marks a line that must get a low-confidence finding only (listed for
  // review, verdict unchanged); good fixtures may carry these.
  const std::set<unsigned> review = markedLines(text, fx.rule, "review");
  const bool bad = fx.path.filename().string().rfind("bad_", 0) == 0;
  ASSERT_EQ(bad, !expected.empty()) << fx.path << ": bad_ fixtures need markers, good_ fixtures none";

  const Facts facts = analyzeSource(SourceFile::fromBytes(text), fx.path.parent_path());
  rules::Selection only;
  only.select = {fx.rule};
  const std::optional<problems::ProblemContext> problem = kbaudit::test::fixtureProblem(text);
  if (problem) {
    ASSERT_TRUE(problem->reference.found) << fx.path << ": problem " << problem->dir << " has no reference.py";
  }
  const rules::RuleResults results =
      rules::runRules(rules::CheckContext{facts, problem ? &*problem : nullptr, kbaudit::test::fixtureSuite(text)}, only);

  std::set<unsigned> covered;
  std::set<unsigned> coveredDecisively;
  for (const rules::Finding &f : results.findings) {
    for (unsigned line : decisive)
      if (f.lines.contains(line) && f.confidence != rules::Confidence::Low)
        coveredDecisively.insert(line);
    ASSERT_EQ(f.rule, fx.rule);
    bool hit = false;
    for (unsigned line : review)
      if (f.lines.contains(line)) {
        EXPECT_EQ(f.confidence, rules::Confidence::Low)
            << fx.path.filename() << ": line " << line << " is marked review but the finding is decisive";
        covered.insert(line);
        hit = true;
      }
    for (unsigned line : expected)
      if (f.lines.contains(line)) {
        covered.insert(line);
        hit = true;
      }
    EXPECT_TRUE(hit) << fx.path.filename() << ": unexpected " << f.rule << " finding at lines "
                     << f.lines.begin << "-" << f.lines.end << ": " << f.message;
  }
  for (unsigned line : expected)
    EXPECT_TRUE(covered.count(line)) << fx.path.filename() << ": line " << line << " not flagged by " << fx.rule;
  for (unsigned line : review)
    EXPECT_TRUE(covered.count(line)) << fx.path.filename() << ": line " << line << " has no review finding of "
                                     << fx.rule;
  for (unsigned line : decisive)
    EXPECT_TRUE(coveredDecisively.count(line))
        << fx.path.filename() << ": line " << line << " is marked decisive but " << fx.rule
        << " reports it for review only (or not at all)";
}

// Python reads CRLF and lone CR as newlines: a hacking fixture re-line-ended either way gets
// the same findings on the same lines (a solution saved with lone CRs once read as clean).
class RuleFixtureLineEndings : public ::testing::TestWithParam<Fixture> {};

/// Findings as `RULE@begin-end/confidence`, lines moved up by `shift` (a prepended declaration).
std::vector<std::string> findingsOf(const std::string &text, const Fixture &fx, unsigned shift = 0) {
  const Facts facts = analyzeSource(SourceFile::fromBytes(text), fx.path.parent_path());
  rules::Selection only;
  only.select = {fx.rule};
  const std::string original = kbaudit::test::readFile(fx.path);
  const std::optional<problems::ProblemContext> problem = kbaudit::test::fixtureProblem(original);
  const rules::RuleResults results =
      rules::runRules(rules::CheckContext{facts, problem ? &*problem : nullptr, kbaudit::test::fixtureSuite(original)}, only);
  std::vector<std::string> out;
  for (const rules::Finding &f : results.findings)
    out.push_back(f.rule + "@" + std::to_string(f.lines.begin - shift) + "-" + std::to_string(f.lines.end - shift) + "/" +
                  std::to_string(static_cast<int>(f.confidence)));
  std::sort(out.begin(), out.end());
  return out;
}

TEST_P(RuleFixtureLineEndings, SameFindingsWithCrLfAndLoneCr) {
  const Fixture &fx = GetParam();
  const std::string text = kbaudit::test::readFile(fx.path);
  const std::vector<std::string> expected = findingsOf(text, fx);
  ASSERT_FALSE(expected.empty()) << fx.path.filename() << " is a bad_ fixture with no finding";
  std::string crlf, cr;
  for (char c : text) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    cr += c == '\n' ? '\r' : c;
  }
  EXPECT_EQ(findingsOf(crlf, fx), expected) << fx.path.filename() << " with CRLF line endings";
  EXPECT_EQ(findingsOf(cr, fx), expected) << fx.path.filename() << " with lone-CR line endings";
}

/// The fixture in UTF-7 as glibc's iconv writes it: `_`, `=`, `[`, quotes and most other
/// punctuation become base64 runs, so no `x = ...` assignment appears in the bytes.
std::string toUtf7(const std::string &text) {
  iconv_t cd = ::iconv_open("UTF-7", "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1))
    return {};
  std::string out(text.size() * 5 + 16, '\0');
  char *in = const_cast<char *>(text.data());
  char *dst = out.data();
  std::size_t inLeft = text.size(), dstLeft = out.size();
  const bool ok = ::iconv(cd, &in, &inLeft, &dst, &dstLeft) != static_cast<std::size_t>(-1) &&
                  ::iconv(cd, nullptr, nullptr, &dst, &dstLeft) != static_cast<std::size_t>(-1);
  ::iconv_close(cd);
  out.resize(out.size() - dstLeft);
  return ok ? out : std::string();
}

/// The fixture as `unicode_escape` source: every letter an \xHH escape, backslashes doubled,
/// non-ASCII characters as \uXXXX; newlines stay, so the lines are the same.
std::string toUnicodeEscape(const std::string &text) {
  std::string out;
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
      unsigned cp = c & (0x3F >> (n - 1));
      for (int k = 1; k < n; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      std::snprintf(buf, sizeof buf, cp > 0xFFFF ? "\\U%08x" : "\\u%04x", cp);
      out += buf;
      i += n;
      continue;
    }
    if (c == '\\') {
      out += "\\\\";
    } else if (std::isalpha(c)) {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return out;
}

class RuleFixtureEncodings : public ::testing::TestWithParam<Fixture> {};

// A PEP 263 declaration and a re-encoded body once hid a wrapper entirely: the same findings
// must come back, one line lower.
TEST_P(RuleFixtureEncodings, SameFindingsReEncodedWithACodingDeclaration) {
  const Fixture &fx = GetParam();
  const std::string text = kbaudit::test::readFile(fx.path);
  const std::vector<std::string> expected = findingsOf(text, fx);
  ASSERT_FALSE(expected.empty()) << fx.path.filename() << " is a bad_ fixture with no finding";
  const std::string utf7 = toUtf7(text);
  ASSERT_FALSE(utf7.empty());
  ASSERT_EQ(utf7.find(" = "), std::string::npos);
  EXPECT_EQ(findingsOf("# -*- coding: utf-7 -*-\n" + utf7, fx, 1), expected) << fx.path.filename() << " in UTF-7";
  EXPECT_EQ(findingsOf("# coding: unicode_escape\n" + toUnicodeEscape(text), fx, 1), expected)
      << fx.path.filename() << " as unicode_escape";
}

std::vector<Fixture> badFixtures() {
  std::vector<Fixture> out;
  for (const Fixture &fx : allFixtures())
    if (fx.path.filename().string().rfind("bad_", 0) == 0)
      out.push_back(fx);
  return out;
}

std::string fixtureName(const ::testing::TestParamInfo<Fixture> &info) {
  std::string name = info.param.rule + "_" + info.param.path.stem().string();
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

// Snapshots, as CodeQL's .expected files: every finding of the fixture's rule (span,
// confidence, rendered message, evidence) is written down beside the fixture, so a change to
// what a rule says (not only where it fires) shows up in review. Regenerate with
//   KBAUDIT_UPDATE_SNAPSHOTS=1 build/tests/kbaudit_tests --gtest_filter='Fixtures/RuleSnapshot.*'
class RuleSnapshot : public ::testing::TestWithParam<Fixture> {};

std::string snapshotOf(const Fixture &fx) {
  const std::string text = kbaudit::test::readFile(fx.path);
  const Facts facts = analyzeSource(SourceFile::fromBytes(text), fx.path.parent_path());
  rules::Selection only;
  only.select = {fx.rule};
  const std::optional<problems::ProblemContext> problem = kbaudit::test::fixtureProblem(text);
  const rules::RuleResults results = rules::runRules(rules::CheckContext{facts, problem ? &*problem : nullptr, kbaudit::test::fixtureSuite(text)}, only);
  std::string out = "# " + fx.path.filename().string() + ": every " + fx.rule +
                    " finding. Regenerate: KBAUDIT_UPDATE_SNAPSHOTS=1 build/tests/kbaudit_tests "
                    "--gtest_filter='Fixtures/RuleSnapshot.*'\n";
  if (results.findings.empty())
    out += "(no finding)\n";
  for (const rules::Finding &f : results.findings) {
    out += f.rule + " lines " + std::to_string(f.lines.begin) + "-" + std::to_string(f.lines.end) + " " +
           rules::confidenceName(f.confidence) + "\n";
    out += "  message: " + f.message + "\n";
    if (!f.evidence.empty())
      out += "  evidence: " + f.evidence + "\n";
  }
  return out;
}

TEST_P(RuleSnapshot, MatchesItsExpectedFile) {
  const Fixture &fx = GetParam();
  fs::path expected = fx.path;
  expected.replace_extension(".expected");
  const std::string actual = snapshotOf(fx);
  if (std::getenv("KBAUDIT_UPDATE_SNAPSHOTS")) {
    std::ofstream(expected, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(expected)) << expected << " is missing: run with KBAUDIT_UPDATE_SNAPSHOTS=1";
  EXPECT_EQ(kbaudit::test::readFile(expected), actual)
      << expected << " differs: review the change, then regenerate with KBAUDIT_UPDATE_SNAPSHOTS=1";
}

// A snapshot without its fixture is stale.
TEST(RuleSnapshots, EveryExpectedFileHasItsFixture) {
  for (const auto &dir : fs::directory_iterator(fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "fixtures"))
    for (const auto &file : fs::directory_iterator(dir.path()))
      if (file.path().extension() == ".expected") {
        fs::path py = file.path();
        py.replace_extension(".py");
        EXPECT_TRUE(fs::exists(py)) << file.path() << " has no fixture";
      }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, RuleFixture, ::testing::ValuesIn(allFixtures()), fixtureName);
INSTANTIATE_TEST_SUITE_P(Fixtures, RuleSnapshot, ::testing::ValuesIn(allFixtures()), fixtureName);
INSTANTIATE_TEST_SUITE_P(Fixtures, RuleFixtureLineEndings, ::testing::ValuesIn(badFixtures()), fixtureName);
INSTANTIATE_TEST_SUITE_P(Fixtures, RuleFixtureEncodings, ::testing::ValuesIn(badFixtures()), fixtureName);

} // namespace
