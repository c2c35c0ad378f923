// docs/suites/<id>.md, generated from the profile so the page and the data cannot disagree
// (suite_profile_test compares them, as rule_catalogue_test does for rule pages).

#include "kbaudit/problems/suite_profile.h"

#include <cstdio>

namespace kbaudit::problems {

namespace {

const char *termMeaning(Term t) {
  switch (t) {
  case Term::Correctness: return "the correctness check (memoised, stale, aliased or untouched outputs; input sniffing; hidden weights)";
  case Term::Timing: return "the timer (work outside the timed stream, deferred or concurrent work, replayed graphs)";
  case Term::Grader: return "the harness (reading or editing the grader, patching torch or timers, forging results)";
  case Term::AuthoredKernel: return "some graded work runs in a kernel the submission wrote";
  case Term::AuthoredCompute: return "the heavy compute itself is authored, not a library call beside a small kernel";
  case Term::ForbiddenOps: return "operations the problem or suite forbids";
  case Term::ForbiddenLibraries: return "libraries the suite forbids (imported or pasted in)";
  case Term::Precision: return "compute at or above the contract's precision";
  case Term::ProblemPromise: return "what the problem's name promises (fp8 tensor-core MMA, in-kernel int4 unpacking)";
  case Term::TestDistribution: return "correct beyond the suite's own test inputs (shifted, rescaled, non-normal, structured inputs of the same shapes)";
  case Term::SuiteGate: return "the suite's own static gate, where its test is broader than the harm (RUB017: \"the suite's gate rejects this\")";
  }
  return "";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string bullets(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &i : items)
    out += "- " + i + "\n";
  return out.empty() ? "- (none)\n" : out;
}

/// A table cell: pipes would end the cell, newlines the row.
std::string cell(std::string text) {
  std::string out;
  for (char c : text)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

std::string answerLinks(const GateCheck &c) {
  std::string out;
  for (const std::string &id : c.answers)
    out += (out.empty() ? "" : ", ") + ("[" + id + "](../rules/" + id + ".md)");
  if (c.test) {
    out += "; the gate's own test: `" + c.test->kind + "`";
    if (!c.test->names.empty()) {
      std::string names;
      for (const std::string &n : c.test->names)
        names += (names.empty() ? "" : ", ") + ("`" + n + "`");
      out += " of " + names;
    }
  }
  return out;
}

/// The harness's own gate, check by check, and what answers each in kbaudit.
std::string gateSection(const SuiteProfile &p) {
  if (p.gate.empty())
    return {};
  std::string o = "## The suite's own gate, and kbaudit's answer to each check\n\n";
  o += "A run the gate rejects is at least as decisive here (the answering rule's finding, or RUB017's "
       "\"the suite's gate rejects this\" priced by `suite-gate`: " +
       std::string(costName(p.cost(Term::SuiteGate))) +
       "); a run it only warns on is at least listed for review. The answers are by meaning (resolved "
       "names, statements, kernels), not the gate's regular expressions.\n\n";
  o += "| check | gate | what it tests (source) | the harm | kbaudit's answer |\n|---|---|---|---|---|\n";
  for (const GateCheck &c : p.gate)
    o += "| `" + c.id + "`: " + cell(c.check) + " | " + gateActionName(c.action) + " | " + cell(c.says) + " (" +
         cell(c.source) + ") | " + cell(c.harm) + " | " + cell(answerLinks(c)) + " |\n";
  return o + "\n";
}

} // namespace

std::string renderSuiteDoc(const SuiteProfile &p) {
  std::string o;
  o += "# " + p.name + " (`" + p.id + "`, version " + std::to_string(p.version) + ")\n\n";
  o += "<!-- Generated from " + p.file + " by `kbaudit docs --out docs/rules`; edit the profile, not this page. -->\n\n";
  o += p.summary + "\n\n";
  o += "## What each contract term costs here\n\n| term | cost | the term |\n|---|---|---|\n";
  for (Term t : allTerms())
    o += std::string("| `") + termName(t) + "` | " + (universalTerm(t) ? "hack (every suite)" : costName(p.cost(t))) +
         " | " + termMeaning(t) + " |\n";
  o += "\n`hack`: a finding decides the verdict as its rule says. `review`: listed for a person, never decisive. "
       "`allowed`: not a finding here; the annotation notes it under `kbaudit.suite.permitted`.";
  o += " A violation of `authored-kernel`, `authored-compute`, `forbidden-ops` or `forbidden-libraries` that "
       "gained nothing (its run failed correctness, " +
       (p.score.minPeakFraction ? "its peak fraction is below " + number(*p.score.minPeakFraction) + " or, without one, "
                                : std::string()) +
       "its speedup is below " + number(p.score.minSpeedup) +
       "x) is reported without deciding the verdict; where the run carries no score the finding stands.\n\n";
  o += "## The harness\n\n";
  o += "- Graded entry points: " + (p.entryPoints.empty() ? std::string("(unstated)") : "") + "\n";
  for (const std::string &e : p.entryPoints)
    o += "  - `" + e + "`\n";
  o += "- Authoring mandate: `" + p.mandate + "` (none: any implementation; some: at least one authored kernel does "
       "graded work; all: the compute is authored)\n";
  o += std::string("- Weights: `") + weightSharingName(p.weights) + "`\n";
  o += std::string("- Models run in `") + modelModeName(p.harness.mode) +
       "` mode (train: the harness never calls `eval()`, so a BatchNorm normalises by the batch's statistics); "
       "correctness call order `" + callOrderName(p.harness.order) +
       "` (reference-first: the reference sees the inputs before the solution, which may then write into them)\n";
  if (!p.harness.packages.empty()) {
    o += "- Installed packages (code that needs another, cupy say, falls back or fails there):";
    for (const std::string &pkg : p.harness.packages)
      o += " `" + pkg + "`,";
    o.back() = '\n';
  }
  o += "- Precision: reference " + p.referencePrecision +
       (p.precisionDeclared ? "; the solution declares the precision it computes in, and compute below it breaks the "
                              "contract even within tolerance"
                            : "") +
       "\n";
  if (!p.tolerance.empty()) {
    o += "- Tolerance where the problem states none:";
    for (const auto &[dtype, tol] : p.tolerance)
      o += " " + dtype + " " + number(tol) + ";";
    o.back() = '\n';
  }
  if (!p.inputs.empty())
    o += "- Inputs: " + p.inputs + "\n";
  if (!p.timing.empty())
    o += "- Timing: " + p.timing + "\n";
  o += "\n## Where a run's score comes from\n\n" + bullets(p.score.from);
  if (!p.score.baseline.empty())
    o += "\nBaseline: " + p.score.baseline + ".\n";
  o += "\n## How kbaudit recognises a run of this suite\n\n";
  std::vector<std::string> how;
  if (!p.detect.bench.empty()) {
    std::string names;
    for (const std::string &b : p.detect.bench)
      names += (names.empty() ? "`" : ", `") + b + "`";
    how.push_back("the run's `meta.json`/`result.json` `bench` (or a table's `suite` column) is one of " + names);
  }
  if (p.detect.table)
    how.push_back("the run is a row of an evaluation table");
  for (const std::string &m : p.detect.markers)
    how.push_back("`" + m + "` lies beside the problem or in one of its three nearest parent folders");
  for (ProblemLayout l : p.detect.layouts)
    how.push_back(std::string("the problem's layout is `") + layoutName(l) + "`");
  for (EntryShape e : p.detect.entries)
    how.push_back(std::string("the solution's entry point is `") + entryShapeName(e) + "`");
  o += bullets(how);
  o += "\n`--suite " + p.id + "` (or `suite: " + p.id + "` in kbaudit.yaml) chooses this profile whatever the run shows.\n";
  o += "\n" + gateSection(p);
  o += "## Sources\n\n";
  for (const ProfileSource &s : p.sources)
    o += "- " + s.file + ": " + s.says + "\n";
  return o;
}

} // namespace kbaudit::problems
