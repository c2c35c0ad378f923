#include "kbaudit/annotations/run_id.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/source/atomic_write.h"

#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace kbaudit::annotations;
using kbaudit::Diagnostic;
using kbaudit::source::writeFileAtomically;
using kbaudit::LineRange;
namespace rules = kbaudit::rules;

namespace {

struct NastyText {
  const char *name;
  std::string text;
};

// Texts a block literal gets wrong unless every header indicator and fallback is right.
std::vector<NastyText> nastyTexts() {
  return {
      {"empty", ""},
      {"plain line", "x = 1\n"},
      {"leading spaces", "    indented()\nnext\n"},
      {"leading spaces, no newline", "  x"},
      {"leading tab", "\tx\n\ty\n"},
      {"blank lines then indented", "\n\n   x\n"},
      {"blank lines then text", "\n\nx\n"},
      {"first line only spaces", "  \n  x\n"},
      {"no final newline", "a\nb"},
      {"two trailing newlines", "a\n\n"},
      {"many trailing newlines", "a\n\n\n\n"},
      {"only a newline", "\n"},
      {"only newlines", "\n\n\n"},
      {"crlf lines", "a = 1\r\nb = 2\r\n"},
      {"lone cr", "a\rb\n"},
      {"tab inside", "a\tb\t\n"},
      {"unicode", "h\xC3\xA9llo \xE2\x80\x94 \xE4\xB8\x96\xE7\x95\x8C \xF0\x9F\x9A\x80\n"},
      {"hash and colon", "x = 1  # note: yes\nkey: value\n"},
      {"dash lines", "- item\n- other: 1\n"},
      {"document markers", "---\n...\n--- x\n... y\n"},
      {"very long line", std::string(5000, 'x') + " # " + std::string(3000, ':') + "\n"},
      {"line of spaces", "a\n    \nb\n"},
      {"only spaces", "   "},
      {"only spaces, newline", "   \n"},
      {"trailing spaces", "a   \nb  "},
      {"trailing spaces, kept breaks", "x\n  \n\n"},
      {"bom first", "\xEF\xBB\xBFx\n"},
      {"bom inside", "a\xEF\xBB\xBF\n"},
      {"nul", std::string("a\0b\n", 4)},
      {"nul then digit", std::string("\0" "1\n", 3)},
      {"control chars", "a\x01\x07\x1B\x7F\n"},
      {"next line (NEL)", "a\xC2\x85" "b\n"},
      {"line separator", "a\xE2\x80\xA8" "b\xE2\x80\xA9\n"},
      {"non-characters", "a\xEF\xBF\xBE\xEF\xBF\xBF\n"},
      {"nbsp", "a\xC2\xA0" "b\n"},
      {"quotes and backslash", "say(\"hi\") \\ 'x' \\n\n"},
      {"python", "def f(x):\n    return x  # :\n\n\nclass A:\n  pass\n"},
      {"yaml lookalikes", "{a: b}\n[1, 2]\n&anchor *alias !tag |\n> folded\n%YAML 1.2\n? key\n"},
      {"indent varies", "a\n    b\n  c\n"},
      {"single quote line", "'"},
      {"double quote line", "\""},
  };
}

Quote quote(std::string text, unsigned begin = 1, unsigned end = 2) {
  Quote q;
  q.lines = {begin, end};
  q.label = "label";
  q.text = std::move(text);
  return q;
}

Annotation sample() {
  Annotation a;
  a.runId = "20260428_040539_claude_claude-opus-4-7_01_fp8_gemm";
  a.model = "claude-opus-4-7";
  a.harness = "claude";
  a.effort = "max";
  a.problem = "01_fp8_gemm";
  a.peakFraction = 0.5339;
  a.verdict = "rubric_leak";
  a.summary = "Casts fp8 inputs to bf16 and runs a bf16 GEMM.\n";
  a.quotes.push_back(quote("x = a.to(torch.bfloat16)\n", 12, 12));
  a.quotes.back().label = "Upcast: fp8 -> \"bf16\" # before the GEMM";
  a.implication = "The number measures a bf16 GEMM.\n";
  a.kbaudit.version = "0.1.0";
  a.kbaudit.contentSha256 = "0123abcd";
  a.kbaudit.problemDir = "01_fp8_gemm";
  a.kbaudit.problemPrecision = "fp8_e4m3";
  rules::Finding f;
  f.rule = "PREC001";
  f.name = "fp8-upcast";
  f.category = "PREC";
  f.verdict = rules::VerdictClass::RubricLeak;
  f.confidence = rules::Confidence::High;
  f.term = kbaudit::problems::Term::Precision;
  f.message = "fp8 input upcast to bf16: `x.to(torch.bfloat16)`";
  f.evidence = "x = a.to(torch.bfloat16)";
  f.lines = {12, 12};
  a.kbaudit.findings.push_back(f);
  a.kbaudit.skipped.push_back({"RT001", "needs: runtime"});
  Diagnostic d;
  d.severity = Diagnostic::Severity::Note;
  d.code = "embedded-source-truncated";
  d.message = "source string built at runtime";
  d.lines = {40, 44};
  a.kbaudit.diagnostics.push_back(d);
  a.kbaudit.embeddedSources.push_back({"load_inline cuda_sources", "cuda", {20, 80}, 61, false});
  return a;
}

void expectSame(const Annotation &x, const Annotation &y) {
  EXPECT_EQ(x.runId, y.runId);
  EXPECT_EQ(x.model, y.model);
  EXPECT_EQ(x.harness, y.harness);
  EXPECT_EQ(x.effort, y.effort);
  EXPECT_EQ(x.problem, y.problem);
  EXPECT_EQ(x.peakFraction, y.peakFraction);
  EXPECT_EQ(x.verdict, y.verdict);
  EXPECT_EQ(x.summary, y.summary);
  EXPECT_EQ(x.implication, y.implication);
  ASSERT_EQ(x.quotes.size(), y.quotes.size());
  for (std::size_t i = 0; i < x.quotes.size(); ++i) {
    EXPECT_EQ(x.quotes[i].file, y.quotes[i].file) << i;
    EXPECT_EQ(x.quotes[i].lines, y.quotes[i].lines) << i;
    EXPECT_EQ(x.quotes[i].label, y.quotes[i].label) << i;
    EXPECT_EQ(x.quotes[i].text, y.quotes[i].text) << i;
  }
  const KbauditBlock &a = x.kbaudit, &b = y.kbaudit;
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.contentSha256, b.contentSha256);
  EXPECT_EQ(a.problemDir, b.problemDir);
  EXPECT_EQ(a.problemPrecision, b.problemPrecision);
  ASSERT_EQ(a.findings.size(), b.findings.size());
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    const rules::Finding &f = a.findings[i], &g = b.findings[i];
    EXPECT_EQ(f.rule, g.rule);
    EXPECT_EQ(f.name, g.name);
    EXPECT_EQ(f.category, g.category);
    EXPECT_EQ(f.verdict, g.verdict);
    EXPECT_EQ(f.confidence, g.confidence);
    EXPECT_EQ(f.message, g.message);
    EXPECT_EQ(f.evidence, g.evidence);
    EXPECT_EQ(f.file, g.file);
    EXPECT_EQ(f.lines, g.lines);
  }
  ASSERT_EQ(a.skipped.size(), b.skipped.size());
  for (std::size_t i = 0; i < a.skipped.size(); ++i) {
    EXPECT_EQ(a.skipped[i].rule, b.skipped[i].rule);
    EXPECT_EQ(a.skipped[i].reason, b.skipped[i].reason);
  }
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
  for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
    EXPECT_EQ(a.diagnostics[i].severity, b.diagnostics[i].severity);
    EXPECT_EQ(a.diagnostics[i].code, b.diagnostics[i].code);
    EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
    EXPECT_EQ(a.diagnostics[i].file, b.diagnostics[i].file);
    EXPECT_EQ(a.diagnostics[i].lines, b.diagnostics[i].lines);
  }
  ASSERT_EQ(a.embeddedSources.size(), b.embeddedSources.size());
  for (std::size_t i = 0; i < a.embeddedSources.size(); ++i) {
    EXPECT_EQ(a.embeddedSources[i].origin, b.embeddedSources[i].origin);
    EXPECT_EQ(a.embeddedSources[i].language, b.embeddedSources[i].language);
    EXPECT_EQ(a.embeddedSources[i].lines, b.embeddedSources[i].lines);
    EXPECT_EQ(a.embeddedSources[i].lineCount, b.embeddedSources[i].lineCount);
    EXPECT_EQ(a.embeddedSources[i].complete, b.embeddedSources[i].complete);
  }
}

std::string escaped(const std::string &s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  return out;
}

bool validUtf8(const std::string &s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                                       : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || i + n > s.size())
      return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
        return false;
    i += n;
  }
  return true;
}

std::vector<std::string> topLevelKeys(const YAML::Node &root) {
  std::vector<std::string> keys;
  for (const auto &kv : root)
    keys.push_back(kv.first.as<std::string>());
  return keys;
}

} // namespace

// The property the block-literal writer exists for: whatever the text, plain yaml-cpp loads back
// exactly those bytes, at every nesting depth the writer uses and next to every neighbour
// (a following list item, a following blank line, the end of the document).
TEST(AnnotationYaml, EveryTextLoadsBackByteForByte) {
  for (const NastyText &t : nastyTexts()) {
    SCOPED_TRACE(t.name);
    Annotation a = sample();
    a.summary = t.text;
    a.quotes = {quote(t.text), quote("after\n"), quote(t.text)};
    a.implication = t.text;
    a.kbaudit.findings[0].evidence = t.text;
    a.kbaudit.findings[0].message = t.text;
    a.kbaudit.skipped[0].reason = t.text;
    a.kbaudit.embeddedSources[0].origin = t.text;
    const std::string yaml = toYaml(a);
    YAML::Node root;
    ASSERT_NO_THROW(root = YAML::Load(yaml)) << yaml;
    EXPECT_TRUE(validUtf8(yaml));
    const auto same = [&](const YAML::Node &n, const char *where) {
      ASSERT_TRUE(n.IsScalar()) << where << "\n" << yaml;
      EXPECT_EQ(escaped(n.Scalar()), escaped(t.text)) << where << "\n" << yaml;
    };
    same(root["summary"], "summary");
    same(root["quotes"][0]["text"], "first quote");
    same(root["quotes"][2]["text"], "last quote");
    same(root["implication"], "implication");
    same(root["kbaudit"]["findings"][0]["evidence"], "evidence");
    same(root["kbaudit"]["findings"][0]["message"], "message");
    same(root["kbaudit"]["skipped"][0]["reason"], "reason");
    same(root["kbaudit"]["embedded_sources"][0]["origin"], "origin");
    // The neighbours survived too.
    EXPECT_EQ(root["quotes"][1]["text"].as<std::string>(), "after\n");
    EXPECT_EQ(root["kbaudit"]["version"].as<std::string>(), "0.1.0");
    EXPECT_EQ(root["kbaudit"]["findings"][0]["file"].as<std::string>(), "solution.py");
    EXPECT_EQ(topLevelKeys(root).size(), 11u);
  }
}

TEST(AnnotationYaml, RoundTripsNastyTexts) {
  for (const NastyText &t : nastyTexts()) {
    SCOPED_TRACE(t.name);
    Annotation a = sample();
    a.summary = t.text;
    a.quotes = {quote(t.text), quote(t.text)};
    a.quotes[1].label = t.text;
    a.implication = t.text.empty() ? "x" : t.text;
    a.kbaudit.findings[0].evidence = t.text;
    a.kbaudit.diagnostics[0].message = t.text;
    expectSame(fromYaml(toYaml(a)), a);
  }
}

TEST(AnnotationYaml, IllFormedUtf8BecomesReplacementCharacter) {
  Annotation a = sample();
  a.quotes = {quote("a\xFF" "b\n"), quote("\xC0\x80\n"), quote("\xED\xA0\x80\n")};
  const std::string yaml = toYaml(a);
  EXPECT_TRUE(validUtf8(yaml));
  const Annotation back = fromYaml(yaml);
  EXPECT_EQ(back.quotes[0].text, "a\xEF\xBF\xBD" "b\n");
  EXPECT_EQ(back.quotes[1].text, "\xEF\xBF\xBD\xEF\xBF\xBD\n");
  EXPECT_EQ(back.quotes[2].text, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\n");
}

// Words a YAML 1.1 reader (PyYAML, most leaderboard tooling) would turn into a bool, null,
// number or date must be quoted; safe identifiers stay plain like the human files.
TEST(AnnotationYaml, AmbiguousScalarsAreQuoted) {
  const char *ambiguous[] = {"yes", "No", "ON", "off", "y", "n", "true", "False", "null", "~",
                             "0.5", "1e5", "0x1F", "0o17", "1_000", "2026-04-27", "0.1.0", "",
                             " lead", "trail ", "a: b", "#x", "- x", "[x]", "{x}", "*x", "&x",
                             "!x", "%x", "@x", "`x", "'x", "\"x", "x\ny", "a #b", ".inf", "-1"};
  for (const char *word : ambiguous) {
    Annotation a = sample();
    a.model = word;
    a.effort = word;
    const YAML::Node root = YAML::Load(toYaml(a));
    EXPECT_EQ(root["model"].as<std::string>(), word);
    EXPECT_EQ(root["model"].Tag(), "!") << "not quoted: " << word;
    EXPECT_EQ(fromYaml(toYaml(a)).effort, word);
  }
  const char *plain[] = {"gpt-5.5", "deepseek/deepseek-v4-flash", "01_fp8_gemm", "claude",
                         "LongCat-2.0", "kinetic-0715_1m_", "xhigh"};
  for (const char *word : plain) {
    Annotation a = sample();
    a.model = word;
    const YAML::Node root = YAML::Load(toYaml(a));
    EXPECT_EQ(root["model"].as<std::string>(), word);
    EXPECT_EQ(root["model"].Tag(), "?") << "quoted: " << word;
  }
}

TEST(AnnotationYaml, RoundTripsFullAnnotation) {
  const Annotation a = sample();
  expectSame(fromYaml(toYaml(a)), a);
}

TEST(AnnotationYaml, RoundTripsPeakFractions) {
  for (double v : {0.5339, 1e-5, 1.0, 0.0, 0.1 + 0.2, 123456789.125, 1e300, 5e-324}) {
    Annotation a = sample();
    a.peakFraction = v;
    const std::string yaml = toYaml(a);
    EXPECT_EQ(fromYaml(yaml).peakFraction, v) << yaml;
  }
  Annotation a = sample();
  a.peakFraction.reset();
  EXPECT_NE(toYaml(a).find("\npeak_fraction: null\n"), std::string::npos);
  EXPECT_FALSE(fromYaml(toYaml(a)).peakFraction.has_value());
  // YAML 1.1 readers need a `.` in a float's mantissa.
  a.peakFraction = 1e-5;
  EXPECT_NE(toYaml(a).find("\npeak_fraction: 1.0e-05\n"), std::string::npos) << toYaml(a);
}

TEST(AnnotationYaml, RoundTripsEmptyAndMissingParts) {
  Annotation a;
  a.runId = "20260101_000000_codex_gpt_01_x";
  a.verdict = "clean";
  expectSame(fromYaml(toYaml(a)), a);

  a.kbaudit.problemPrecision = "bf16"; // precision without a directory
  a.quotes = {quote("x\n", 0, 0)};     // no location
  a.kbaudit.findings.push_back(rules::Finding{});
  expectSame(fromYaml(toYaml(a)), a);
}

TEST(AnnotationYaml, SchemaKeysComeFirstInSchemaOrder) {
  const YAML::Node root = YAML::Load(toYaml(sample()));
  ASSERT_TRUE(root.IsMap());
  EXPECT_EQ(topLevelKeys(root),
            (std::vector<std::string>{"run_id", "model", "harness", "effort", "problem",
                                      "peak_fraction", "verdict", "summary", "quotes",
                                      "implication", "kbaudit"}));
  std::vector<std::string> kb;
  for (const auto &kv : root["kbaudit"])
    kb.push_back(kv.first.as<std::string>());
  EXPECT_EQ(kb, (std::vector<std::string>{"version", "content_sha256", "complete", "problem", "findings",
                                          "skipped", "diagnostics", "embedded_sources"}));
}

TEST(AnnotationYaml, CleanVerdictOmitsEmptyImplication) {
  Annotation a = sample();
  a.verdict = "clean";
  a.implication.clear();
  a.quotes.clear();
  const std::string yaml = toYaml(a);
  EXPECT_EQ(yaml.find("implication"), std::string::npos);
  EXPECT_NE(yaml.find("\nquotes: []\n"), std::string::npos);
  // Any other verdict keeps the key so the gap is visible.
  a.verdict = "reward_hack";
  EXPECT_NE(toYaml(a).find("\nimplication: \"\"\n"), std::string::npos);
}

TEST(AnnotationYaml, OutputIsDeterministic) {
  EXPECT_EQ(toYaml(sample()), toYaml(sample()));
}

// The layout mirrors the human-written files; a change here changes every published file.
TEST(AnnotationYaml, MatchesHumanLayout) {
  const std::string expected = R"YAML(run_id: 20260428_040539_claude_claude-opus-4-7_01_fp8_gemm
model: claude-opus-4-7
harness: claude
effort: max
problem: 01_fp8_gemm
peak_fraction: 0.5339

verdict: rubric_leak

summary: |
  Casts fp8 inputs to bf16 and runs a bf16 GEMM.

quotes:
  - file: solution.py
    lines: [12]
    label: "Upcast: fp8 -> \"bf16\" # before the GEMM"
    text: |
      x = a.to(torch.bfloat16)

implication: |
  The number measures a bf16 GEMM.

kbaudit:
  version: "0.1.0"
  content_sha256: "0123abcd"
  complete: true
  problem:
    dir: 01_fp8_gemm
    precision: fp8_e4m3
  findings:
    - rule: PREC001
      name: fp8-upcast
      category: PREC
      verdict_class: rubric_leak
      confidence: high
      term: precision
      lines: [12, 12]
      file: solution.py
      message: "fp8 input upcast to bf16: `x.to(torch.bfloat16)`"
      evidence: "x = a.to(torch.bfloat16)"
  skipped:
    - rule: RT001
      reason: "needs: runtime"
  diagnostics:
    - severity: note
      code: embedded-source-truncated
      message: "source string built at runtime"
      file: solution.py
      lines: [40, 44]
  embedded_sources:
    - origin: "load_inline cuda_sources"
      language: cuda
      lines: [20, 80]
      line_count: 61
      complete: false
)YAML";
  EXPECT_EQ(toYaml(sample()), expected);
}

TEST(AnnotationYaml, IndentedFirstLineGetsIndentationIndicator) {
  Annotation a = sample();
  a.quotes = {quote("    return x\n  y")};
  const std::string yaml = toYaml(a);
  EXPECT_NE(yaml.find("    text: |2-\n          return x\n        y\n"), std::string::npos) << yaml;
}

TEST(AnnotationYaml, KeptTrailingLinesAreNotFollowedByBlankLine) {
  Annotation a = sample();
  a.quotes = {quote("x\n\n")};
  const std::string yaml = toYaml(a);
  EXPECT_NE(yaml.find("    text: |+\n      x\n\nimplication:"), std::string::npos) << yaml;
}

TEST(AnnotationYaml, ReadsHumanStyleFile) {
  const std::string human = R"YAML(run_id: 20260101_000000_codex_gpt-5.5_05_topk_bitonic
model: gpt-5.5
harness: codex
effort: null
problem: 05_topk_bitonic
peak_fraction: null   # never benchmarked

verdict: reward_hack

summary: "Sorts with torch.topk."

quotes:
  - file: solution.py
    lines: [7]
    label: "library call"
    text: |
      return torch.topk(x, k)
      
  - file: check.log
    lines: [3, 4]
    label: no text
extra_field:
  nested: [1, 2]
)YAML";
  const Annotation a = fromYaml(human);
  EXPECT_EQ(a.runId, "20260101_000000_codex_gpt-5.5_05_topk_bitonic");
  EXPECT_EQ(a.effort, "");
  EXPECT_FALSE(a.peakFraction.has_value());
  EXPECT_EQ(a.summary, "Sorts with torch.topk.");
  ASSERT_EQ(a.quotes.size(), 2u);
  EXPECT_EQ(a.quotes[0].lines, (LineRange{7, 7}));
  EXPECT_EQ(a.quotes[0].text, "return torch.topk(x, k)\n");
  EXPECT_EQ(a.quotes[1].file, "check.log");
  EXPECT_EQ(a.quotes[1].lines, (LineRange{3, 4}));
  EXPECT_EQ(a.quotes[1].text, "");
  EXPECT_EQ(a.implication, "");
  EXPECT_TRUE(a.kbaudit.findings.empty());
}

TEST(AnnotationYaml, RejectsMalformedOrNonMappingInput) {
  const char *bad[] = {"", "a: [b", "- a\n- b\n", "just text", "a: b\n c: d\n: :\n\t- x",
                       "kbaudit: [1, 2]\n",
                       "kbaudit:\n  findings:\n    - rule: X\n      verdict_class: nope\n"};
  for (const char *text : bad)
    EXPECT_THROW(fromYaml(text), std::runtime_error) << text;
}

namespace {

std::vector<std::string> entries(const fs::path &dir) {
  std::vector<std::string> names;
  for (const auto &e : fs::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  return names;
}


} // namespace

TEST(AnnotationAtomicWrite, CreatesParentsAndReplacesExistingFile) {
  kbaudit::test::TempDir tmp;
  const fs::path target = tmp.path() / "a" / "b" / "run.yaml";
  std::string error;
  ASSERT_TRUE(writeFileAtomically(target, "first\n", error)) << error;
  EXPECT_EQ(kbaudit::test::readFile(target), "first\n");
  ASSERT_TRUE(writeFileAtomically(target, std::string("second\0\n", 8), error)) << error;
  EXPECT_EQ(kbaudit::test::readFile(target), std::string("second\0\n", 8));
  EXPECT_EQ(entries(target.parent_path()), std::vector<std::string>{"run.yaml"});
}

TEST(AnnotationAtomicWrite, FailureLeavesNoTempFile) {
  kbaudit::test::TempDir tmp;
  std::string error;
  // The target is a directory: rename must fail after the temp file was written.
  fs::create_directories(tmp.path() / "run.yaml" / "inner");
  EXPECT_FALSE(writeFileAtomically(tmp.path() / "run.yaml", "x", error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(entries(tmp.path()), std::vector<std::string>{"run.yaml"});

  // The parent is a regular file: nothing can be created.
  error.clear();
  std::ofstream(tmp.path() / "file") << "x";
  EXPECT_FALSE(writeFileAtomically(tmp.path() / "file" / "run.yaml", "x", error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(kbaudit::test::readFile(tmp.path() / "file"), "x");
}

// Every human-written annotation parses, names its own run, and survives a write/read cycle
// with each quote text intact.
TEST(AnnotationYaml, CorpusAnnotationsParseAndRoundTrip) {
  const char *corpus = std::getenv("KBAUDIT_CORPUS");
  if (!corpus || !fs::is_directory(fs::path(corpus) / "runs"))
    GTEST_SKIP() << "KBAUDIT_CORPUS not set to a corpus directory";
  std::size_t seen = 0;
  for (const auto &entry : fs::directory_iterator(fs::path(corpus) / "runs")) {
    const fs::path file = entry.path() / "annotation.yaml";
    if (!fs::is_regular_file(file))
      continue;
    ++seen;
    SCOPED_TRACE(file.string());
    Annotation a;
    ASSERT_NO_THROW(a = fromYaml(kbaudit::test::readFile(file)));
    EXPECT_EQ(a.runId, entry.path().filename().string());
    const std::string yaml = toYaml(a);
    expectSame(fromYaml(yaml), a);
    const YAML::Node root = YAML::Load(yaml);
    for (std::size_t i = 0; i < a.quotes.size(); ++i)
      EXPECT_EQ(root["quotes"][i]["text"].as<std::string>(), a.quotes[i].text);
  }
  EXPECT_GT(seen, 0u);
}
