// `--output-format full|concise|grouped`: ruff's text layouts, with kbaudit's verdicts.

#include "kbaudit/annotations/report_formats.h"

#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/terminal_text.h"

namespace kbaudit::annotations {

namespace {

/// ANSI SGR codes; `paint` adds them only when the style asks for colour.
constexpr const char *kBold = "1", *kRed = "1;31", *kYellow = "33", *kCyan = "36", *kDim = "2", *kGreen = "32";

std::string paint(const TextStyle &style, const char *sgr, const std::string &text) {
  if (!style.color || text.empty())
    return text;
  return std::string("\x1b[") + sgr + "m" + text + "\x1b[0m";
}

std::string t(const std::string &s) { return terminalSafe(s); }

const char *verdictColour(const std::string &verdict) {
  if (verdict == "clean")
    return kGreen;
  if (verdict == "reward_hack" || verdict == "rubric_leak" || verdict == "bug")
    return kRed;
  return kYellow;
}

/// `path:line:col` (`path:line` for a finding without columns, `path` without lines).
std::string location(const CheckedFile &file, const std::string &findingFile, const LineRange &lines) {
  std::string out = t(file.pathOf(findingFile));
  if (!lines.valid())
    return out;
  out += ":" + std::to_string(lines.begin);
  const std::string *text = file.sourceOf(findingFile);
  const Span span = text ? spanOf(*text, lines, ColumnUnit::CodePoint) : Span{};
  if (span.startColumn)
    out += ":" + std::to_string(span.startColumn);
  return out;
}

std::string ruleTag(const TextStyle &style, const rules::Finding &f) {
  return paint(style, decisive(f) ? kRed : kYellow, t(f.rule));
}

std::string classTag(const rules::Finding &f, bool withConfidence) {
  std::string out = std::string("[") + rules::verdictClassName(f.verdict);
  if (withConfidence)
    out += std::string(", ") + rules::confidenceName(f.confidence);
  if (f.accepted)
    out += ", accepted";
  return out + "]";
}

std::size_t countFindings(const std::vector<CheckedFile> &files) {
  std::size_t n = 0;
  for (const CheckedFile &f : files)
    n += f.annotation.kbaudit.findings.size();
  return n;
}

std::string plural(std::size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

std::string toFull(const std::vector<CheckedFile> &files, TextStyle style) {
  std::string out;
  for (const CheckedFile &file : files) {
    const Annotation &a = file.annotation;
    out += paint(style, kBold, t(a.runId)) + ": " + paint(style, verdictColour(a.verdict), t(a.verdict)) + "\n  " +
           t(a.summary) + "\n";
    if (!a.implication.empty())
      out += "  implication: " + t(a.implication) + "\n";
    for (const rules::Finding &f : a.kbaudit.findings) {
      out += "  " + paint(style, kBold, location(file, f.file, f.lines)) + ": " + ruleTag(style, f) + " " + t(f.name) +
             " " + classTag(f, true) + " " + t(f.message);
      if (!f.evidence.empty())
        out += " (" + t(f.evidence) + ")";
      if (!f.suiteNote.empty())
        out += " [suite: " + t(f.suiteNote) + "]";
      out += "\n";
      // The code the finding points at, as ruff's full output shows it.
      if (const std::string *text = file.sourceOf(f.file); text && f.lines.valid()) {
        const std::string_view line = lineOf(*text, f.lines.begin);
        if (!line.empty())
          out += paint(style, kDim, "  " + std::string(6 - std::min<std::size_t>(6, std::to_string(f.lines.begin).size()), ' ') +
                                        std::to_string(f.lines.begin) + " |") +
                 " " + t(std::string(line)) + "\n";
      }
    }
    if (a.kbaudit.suite)
      out += "  suite: " + t(a.kbaudit.suite->id) + " (" + t(a.kbaudit.suite->detectedBy) + "); " + t(a.kbaudit.suite->gain) + "\n";
    for (const rules::SkippedRule &s : a.kbaudit.skipped)
      out += "  skipped " + t(s.rule) + ": " + t(s.reason) + "\n";
    for (const Diagnostic &d : a.kbaudit.diagnostics)
      out += "  " + location(file, d.file, d.lines) + ": " + severityName(d.severity) + ": " + t(d.code) + ": " +
             t(d.message) + "\n";
  }
  return out;
}

std::string toConcise(const std::vector<CheckedFile> &files, TextStyle style) {
  std::string out;
  for (const CheckedFile &file : files) {
    const Annotation &a = file.annotation;
    for (const rules::Finding &f : a.kbaudit.findings)
      out += paint(style, kBold, location(file, f.file, f.lines)) + ": " + ruleTag(style, f) + " " + classTag(f, false) +
             " " + t(f.message) + "\n";
    if (a.kbaudit.findings.empty() && a.verdict != "clean")
      out += paint(style, kBold, t(file.path)) + ": " + paint(style, verdictColour(a.verdict), t(a.verdict)) + ": " +
             t(a.summary) + "\n";
  }
  out += "Found " + plural(countFindings(files), "finding") + " in " + plural(files.size(), "file") + ".\n";
  return out;
}

std::string toGrouped(const std::vector<CheckedFile> &files, TextStyle style) {
  std::string out;
  for (const CheckedFile &file : files) {
    const Annotation &a = file.annotation;
    if (!out.empty())
      out += "\n";
    out += paint(style, kBold, t(file.path)) + ": " + paint(style, verdictColour(a.verdict), t(a.verdict)) + "\n";
    for (const rules::Finding &f : a.kbaudit.findings) {
      std::string where = f.lines.valid() ? std::to_string(f.lines.begin) : "-";
      if (const std::string *text = file.sourceOf(f.file)) {
        const Span span = spanOf(*text, f.lines, ColumnUnit::CodePoint);
        if (span.startColumn)
          where += ":" + std::to_string(span.startColumn);
      }
      if (f.file != "solution.py" && !f.file.empty())
        where = t(f.file) + ":" + where;
      out += "  " + paint(style, kCyan, where) + " " + ruleTag(style, f) + " " + classTag(f, false) + " " + t(f.message) + "\n";
    }
    for (const Diagnostic &d : a.kbaudit.diagnostics)
      if (d.severity == Diagnostic::Severity::Error)
        out += "  " + paint(style, kRed, std::string(severityName(d.severity))) + " " + t(d.code) + ": " + t(d.message) + "\n";
  }
  out += (out.empty() ? "" : "\n") + std::string("Found ") + plural(countFindings(files), "finding") + " in " +
         plural(files.size(), "file") + ".\n";
  return out;
}

} // namespace kbaudit::annotations
