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
  // What tree-sitter could not parse it did not see as code: a `forward` inside a broken
  // region is no `forward` to the rules (the file would not import either, but the run's
  // number is then unverified, not clean).
  if (code == "syntax-error")
    return "the Python front end could not parse part of solution.py: ";
  return nullptr;
}

/// "syntax error at line 2 (missing ')')", without the note that the rest was kept.
std::string gapText(const Diagnostic &d) {
  std::string m = d.message;
  if (const std::size_t kept = m.find("; facts from the rest of the file are kept"); kept != std::string::npos)
    m.erase(kept);
  return m;
}

/// Share of a unit's top-level declarations that, invalid, hide it (the corpus's honest units
/// have at most a third invalid, in a unit of three).
constexpr double kHiddenShare = 0.5;

std::string withLine(const Diagnostic &d) {
  return d.lines.valid() && d.message.find("line") == std::string::npos
             ? d.message + " (line " + std::to_string(d.lines.begin) + ")"
             : d.message;
}

} // namespace

bool hidesCode(const cxx::ParseReport &p) {
  if (p.crashed || p.tooLarge || p.errors == 0)
    return false; // crashes and oversized units are their own gaps
  // Clang recovers from an error inside a statement (an unknown call becomes a RecoveryExpr and
  // the body goes on: the corpus's honest units have up to 44 such errors, every function body
  // of a small one among them), so errors in bodies cost a few facts, not the unit. What costs
  // the unit: a fatal error (Clang stops there), no resource headers (every `size_t` an unknown
  // type: 199 errors and more in each of the corpus's 93 units, measured with them hidden), or
  // most of the unit's own declarations invalid.
  return p.fatal || p.resourcesMissing || (!p.parsed && p.errors > 0) ||
         double(p.invalidDeclarations) > kHiddenShare * p.declarations;
}

namespace {

/// A harness that calls module-level functions rather than a forward (a decode problem's
/// `prefill`, `decode_steps`, `run`): public functions the problem's reference defines at
/// module level and the solution defines too. Rules that compare with the reference (RUB009)
/// follow those, so the run was looked at, through them.
bool harnessCallsReferenceFunctions(const Facts &facts, const problems::ProblemContext *problem) {
  if (!problem || !problem->reference.found)
    return false;
  const auto graded = [](const py::Function &f) {
    return f.className.empty() && f.qualname == f.name && !f.name.empty() && f.name.front() != '_' &&
           f.name != "get_inputs" && f.name != "get_init_inputs";
  };
  for (const py::Function &r : problem->reference.facts.functions)
    if (graded(r))
      for (const py::Function &s : facts.python.functions)
        if (graded(s) && s.name == r.name)
          return true;
  return false;
}

std::string unseenCxx(const cxx::ParseReport &p) {
  if (p.resourcesMissing)
    return std::string("Clang could not read an embedded ") + (p.cuda ? "CUDA" : "C++") +
           " source: Clang's resource headers (stddef.h, the CUDA builtins) are missing where kbaudit looks, so it "
           "was not read as written (" +
           std::to_string(p.errors) + " error(s)); reinstall kbaudit, whose package carries them";
  std::string s = std::string("Clang could not read an embedded ") + (p.cuda ? "CUDA" : "C++") + " source" +
                  (p.fatal ? " (it stopped at a fatal error)" : "") + ": " +
                  std::to_string(p.errors) + " error(s); " + std::to_string(p.invalidDeclarations) + " of " +
                  std::to_string(p.declarations) + " declarations invalid, " + std::to_string(p.functionsWithErrors) +
                  " of " + std::to_string(p.functionDefinitions) + " function bodies with errors";
  if (!p.firstErrors.empty()) {
    s += " (first: " + p.firstErrors.front().message;
    if (p.firstErrors.front().lines.valid())
      s += ", line " + std::to_string(p.firstErrors.front().lines.begin);
    s += ")";
  }
  return s;
}

} // namespace

std::vector<std::string> visibilityGaps(const Facts &facts, const problems::ProblemContext *problem) {
  // One sentence per kind: a flood of nested blocks must not become a flood of reasons.
  std::map<std::string, std::pair<std::string, unsigned>> byCode;
  std::vector<std::string> order;
  for (const Diagnostic &d : facts.diagnostics()) {
    const char *prefix = gapPrefix(d.code);
    if (!prefix)
      continue;
    Diagnostic shown = d;
    shown.message = gapText(d);
    auto [it, fresh] = byCode.try_emplace(d.code, prefix + withLine(shown), 0);
    ++it->second.second;
    if (fresh)
      order.push_back(d.code);
  }
  std::vector<std::string> gaps;
  for (const std::string &code : order) {
    const auto &[text, count] = byCode[code];
    gaps.push_back(count == 1 ? text : text + " (and " + std::to_string(count - 1) + " more like it)");
  }
  // With no graded entry point every rule that follows what the grader calls was skipped: the
  // run is not clean, it was not looked at.
  if (facts.kernels.entryPoints.empty() && !harnessCallsReferenceFunctions(facts, problem))
    gaps.push_back("no graded entry point was found (ModelNew/Model.forward, GPU MODE custom_kernel(data), "
                   "pygpubench kernel(output, *inputs)), so the rules that follow what the grader calls were skipped");
  const auto &parses = facts.cxx.parses;
  if (std::any_of(parses.begin(), parses.end(), [](const cxx::ParseReport &p) { return p.crashed; }))
    gaps.push_back("Clang crashed on an embedded C++/CUDA source, so its facts are missing");
  for (const cxx::ParseReport &p : parses)
    if (hidesCode(p)) {
      gaps.push_back(unseenCxx(p));
      break; // one sentence for the kind, as above
    }
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
