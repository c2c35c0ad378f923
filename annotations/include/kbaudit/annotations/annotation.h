#pragma once

// One audited run in the KernelBench-Hard annotation schema (../shared/docs/annotation-schema.md),
// followed by kbaudit's own machine-readable block.

#include "kbaudit/annotations/suite_judgement.h"
#include "kbaudit/rules/finding.h"
#include "kbaudit/runtime/probe.h"
#include "kbaudit/source/diagnostic.h"
#include "kbaudit/source/line_range.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::annotations {

struct Quote {
  std::string file = "solution.py";
  LineRange lines;
  std::string label;
  /// The quoted lines verbatim, each ending in '\n'.
  std::string text;
};

/// A line of the `kbaudit:` block about the embedded sources found.
struct EmbeddedSourceInfo {
  std::string origin;   ///< "load_inline cuda_sources", ...
  std::string language; ///< "cpp" / "cuda"
  LineRange lines;      ///< solution.py lines the source spans
  unsigned lineCount = 0;
  bool complete = true;
};

/// Which rules ran and who chose them: a CI gate whose rules a kbaudit.yaml switched off must say
/// so in every annotation and SARIF file it produces.
struct RuleSelectionInfo {
  std::vector<std::string> select; ///< as given ("" entries none); empty: every rule
  std::vector<std::string> ignore;
  /// "default" (every rule), "command line", "config file" or "command line and config file".
  std::string source = "default";
  std::string configFile;            ///< the kbaudit.yaml read, "" when none
  std::string baseline;              ///< the baseline file applied, "" when none
  std::vector<std::string> disabled; ///< catalogue rules the selection kept from running
};

struct KbauditBlock {
  std::string version;
  std::string contentSha256;
  /// False when kbaudit could not see all of the solution: a parser or evaluator limit was hit,
  /// a front end gave up or crashed, a source could not be recovered. Such a run is never
  /// `clean` (see markIncomplete).
  bool complete = true;
  /// Why it is incomplete, one sentence each ("Python nested deeper than 256 levels at line 96").
  std::vector<std::string> incomplete;
  /// SHA-256 over what made this annotation (the kbaudit build, the options that change an
  /// annotation, the run's files, its table row, its problem's files): a later audit into the
  /// same folder keeps the annotation while it matches. "" when not computed.
  std::string fingerprint;
  std::string problemName;      ///< the problem graded against ("36_RMSNorm_"); "" when none
  std::string problemDir;       ///< "" when no problem context was used
  std::string problemPrecision; ///< "" when unknown
  std::vector<rules::Finding> findings;
  std::vector<rules::SkippedRule> skipped;
  std::vector<Diagnostic> diagnostics;
  std::vector<EmbeddedSourceInfo> embeddedSources;
  /// How the rules were selected (absent in annotations of earlier versions and human ones).
  std::optional<RuleSelectionInfo> selection;
  /// Which suite profile judged the run and what that changed (absent in earlier annotations).
  std::optional<SuiteJudgement> suite;
  /// What the runtime probes did, when they were asked for (`--runtime`, `kbaudit probe`).
  std::optional<runtime::RuntimeReport> runtime;
};

struct Annotation {
  // Schema fields, written in this order.
  std::string runId;
  std::string model;
  std::string harness;
  std::string effort;
  std::string problem;
  std::optional<double> peakFraction;
  std::string verdict; ///< clean | rubric_leak | reward_hack | interesting | bug
  std::string summary;
  std::vector<Quote> quotes;
  std::string implication; ///< empty only when clean
  /// A human annotation's free-text `evidence:` (what the annotator checked), shown by `kbaudit
  /// report`; outside the schema's fields, so kbaudit never writes it.
  std::string evidence;
  KbauditBlock kbaudit;
};

} // namespace kbaudit::annotations
