// Hostile text in human output: terminalSafe, the text rendering of an annotation, and the JSON
// rendering's handling of control characters and invalid UTF-8.

#include "kbaudit/annotations/formats.h"
#include "kbaudit/annotations/terminal_text.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

using kbaudit::annotations::terminalSafe;
using kbaudit::annotations::terminalSafeLines;

namespace {

/// Bytes a terminal could act on: C0 (except the line feed given), DEL, and UTF-8 C1 controls.
std::string rawControls(const std::string &s, bool allowNewline = true) {
  std::string found;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool c1 = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(s[i + 1]) <= 0x9F;
    if ((c < 0x20 && !(allowNewline && c == '\n')) || c == 0x7F || c1)
      found += "byte " + std::to_string(c) + " at " + std::to_string(i) + "; ";
  }
  return found;
}

kbaudit::annotations::Annotation hostileAnnotation() {
  kbaudit::annotations::Annotation a;
  a.runId = "run\x1b[2K\rX: clean\a";
  a.verdict = "reward_hack";
  a.summary = "summary\nX: clean";
  a.implication = "bad\x9b" "byte\xC2\x9B";
  kbaudit::rules::Finding f;
  f.rule = "WRAP001";
  f.name = "no-authored-kernel";
  f.file = "solution.py\x1b]0;title\a";
  f.lines = {3, 3};
  f.message = "quotes source \x1b[31mred\x1b[0m\x7f and \xE2\x80\xAE reversed";
  f.evidence = "line1\nline2\r\tend";
  a.kbaudit.findings.push_back(f);
  a.kbaudit.skipped.push_back({"PREC001", "needs\x08 the problem"});
  a.kbaudit.diagnostics.push_back(
      kbaudit::Diagnostic{kbaudit::Diagnostic::Severity::Warning, "syntax-error", "at \x1b[1A", "x\ny.py", {2, 2}});
  return a;
}

TEST(TerminalText, EscapesControlsAndInvalidUtf8VisiblyAndKeepsText) {
  EXPECT_EQ(terminalSafe("run\x1b[2K\rX: clean\a"), "run\\x1b[2K\\rX: clean\\x07");
  EXPECT_EQ(terminalSafe("a\nb\tc\x7f"), "a\\nb\\tc\\x7f");
  EXPECT_EQ(terminalSafe("\xC2\x9B" "31m"), "\\u{9b}31m");                 // C1 CSI, UTF-8 encoded
  EXPECT_EQ(terminalSafe("caf\xE9"), "caf\\xe9");                         // Latin-1 byte: invalid UTF-8
  EXPECT_EQ(terminalSafe("\xC0\xAF"), "\\xc0\\xaf");                      // overlong '/'
  EXPECT_EQ(terminalSafe("\xED\xA0\x80"), "\\xed\\xa0\\x80");             // a UTF-16 surrogate
  EXPECT_EQ(terminalSafe("end\xE2\x82"), "end\\xe2\\x82");                // truncated sequence
  EXPECT_EQ(terminalSafe("a\xE2\x80\xAE" "b"), "a\\u{202e}b");            // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(terminalSafe("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80");
  EXPECT_EQ(terminalSafe("plain ascii: solution.py:6"), "plain ascii: solution.py:6");
  EXPECT_EQ(terminalSafeLines("one\ntwo\r\n"), "one\ntwo\\r\n");
}

TEST(TerminalText, TextRenderingHasNoRawControlBytes) {
  const std::string text = kbaudit::annotations::toText(hostileAnnotation());
  EXPECT_EQ(rawControls(text), "") << text;
  EXPECT_NE(text.find("run\\x1b[2K\\rX: clean\\x07: reward_hack\n"), std::string::npos) << text;
  EXPECT_NE(text.find("summary\\nX: clean"), std::string::npos) << text;
  EXPECT_NE(text.find("\\u{202e}"), std::string::npos) << text;
  EXPECT_NE(text.find("x\\ny.py:2: warning"), std::string::npos) << text;
  // Exactly the lines the layout makes: header, summary, implication, finding, skipped, diagnostic.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 6) << text;
}

TEST(TerminalText, JsonEscapesEveryControlAndRepairsInvalidUtf8) {
  const std::string json = kbaudit::annotations::toJson(hostileAnnotation());
  EXPECT_EQ(rawControls(json), "") << json;
  EXPECT_NE(json.find("\\u001b[2K\\rX: clean\\u0007"), std::string::npos) << json;
  EXPECT_NE(json.find("\\u007f"), std::string::npos) << json;
  EXPECT_NE(json.find("\\u009b"), std::string::npos) << json;
  // "\x9b" alone is not UTF-8: written as U+FFFD, in every build type.
  EXPECT_NE(json.find("bad\xEF\xBF\xBD" "byte"), std::string::npos) << json;
  const YAML::Node doc = YAML::Load(json);
  EXPECT_EQ(doc["run_id"].as<std::string>(), "run\x1b[2K\rX: clean\a");
  EXPECT_EQ(doc["kbaudit"]["findings"][0]["evidence"].as<std::string>(), "line1\nline2\r\tend");
}

} // namespace
