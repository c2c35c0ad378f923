#include "kbaudit/annotations/incomplete.h"

#include "kbaudit/rules/rule_meta.h"

#include <algorithm>
#include <map>

namespace kbaudit::annotations {

namespace {

/// Diagnostics that mean "this part was not seen", with how a reader should hear them.
const char *gapPrefix(const std::string &code) {
  if (code == "nesting-too-deep" || code == "parse-timeout" || code == "file-too-large")
    return "the Python front end stopped: ";
  // Not `embed-unresolved`/`embed-partial`: a source computed at run time (a call, a file read,
  // templating with computed values) is not a limit of kbaudit's, and honest solutions do it.
  if (code == "code-built-at-run-time")
    return "code the solution runs from a string was not analysed: ";
  if (code == "embed-limit")
    return "an embedded C++/CUDA source was not recovered in full: ";
  return nullptr;
}

std::string withLine(const Diagnostic &d) {
  return d.lines.valid() && d.message.find("line") == std::string::npos
             ? d.message + " (line " + std::to_string(d.lines.begin) + ")"
             : d.message;
}

} // namespace

std::vector<std::string> visibilityGaps(const Facts &facts) {
  // One sentence per kind: a flood of nested blocks must not become a flood of reasons.
  std::map<std::string, std::pair<std::string, unsigned>> byCode;
  std::vector<std::string> order;
  for (const Diagnostic &d : facts.diagnostics()) {
    const char *prefix = gapPrefix(d.code);
    if (!prefix)
      continue;
    auto [it, fresh] = byCode.try_emplace(d.code, prefix + withLine(d), 0);
    ++it->second.second;
    if (fresh)
      order.push_back(d.code);
  }
  std::vector<std::string> gaps;
  for (const std::string &code : order) {
    const auto &[text, count] = byCode[code];
    gaps.push_back(count == 1 ? text : text + " (and " + std::to_string(count - 1) + " more like it)");
  }
  const auto &parses = facts.cxx.parses;
  if (std::any_of(parses.begin(), parses.end(), [](const cxx::ParseReport &p) { return p.crashed; }))
    gaps.push_back("Clang crashed on an embedded C++/CUDA source, so its facts are missing");
  if (const auto big = std::find_if(parses.begin(), parses.end(), [](const cxx::ParseReport &p) { return p.tooLarge; });
      big != parses.end())
    gaps.push_back("an embedded C++/CUDA source is over Clang's " + std::to_string(big->limitBytes >> 20) +
                   " MiB limit, so its facts are missing");
  return gaps;
}

void lowerAbsenceFindings(std::vector<rules::Finding> &findings) {
  for (rules::Finding &f : findings) {
    const rules::RuleMeta *m = rules::findRule(f.rule);
    if (f.accepted || !m || !m->restsOnAbsence || f.confidence == rules::Confidence::Low)
      continue;
    f.confidence = rules::Confidence::Low;
    f.evidence += std::string(f.evidence.empty() ? "" : "\n") +
                  "Left for review: this finding rests on something not being there, and part of the solution "
                  "was not analysed (see kbaudit.incomplete).";
  }
}

void markIncomplete(Annotation &a, const std::vector<std::string> &why) {
  if (why.empty())
    return;
  a.kbaudit.complete = false;
  std::string reasons;
  for (const std::string &w : why) {
    a.kbaudit.incomplete.push_back(w);
    a.kbaudit.diagnostics.push_back(Diagnostic{Diagnostic::Severity::Warning, "analysis-incomplete", w, "solution.py", {}});
    reasons += (reasons.empty() ? "" : "; ") + w;
  }
  if (a.verdict == "reward_hack" || a.verdict == "rubric_leak") {
    // What was seen decides; the summary says what was not.
    a.summary += " kbaudit could not see all of the solution (" + reasons +
                 "); the verdict rests on what it saw, which already decides it.";
    return;
  }
  if (a.verdict == "bug")
    return; // already unauditable for its own reason
  unsigned review = 0;
  for (const rules::Finding &f : a.kbaudit.findings)
    review += !f.accepted;
  a.verdict = "bug";
  a.summary = "kbaudit could not see all of this run (" + reasons + ")" +
              (review ? "; " + std::to_string(review) + " finding(s) from what it could read are listed for review."
                      : "; what it could read holds no finding that decides the verdict.");
  a.implication = "Part of the solution was not analysed, so neither a clean nor a hack verdict is proven; the "
                  "cell's number is unverified until a person reviews the run.";
  a.quotes.clear();
}

} // namespace kbaudit::annotations
