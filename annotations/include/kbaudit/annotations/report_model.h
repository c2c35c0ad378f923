#pragma once

// What `kbaudit report` shows, computed from annotations and nothing else: runs placed on a
// model x problem grid, verdict counts, agreement with human labels, hack rates per model,
// harness and problem, and per-rule counts. Plain data; html_report and report_csv render it.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/annotations/score.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kbaudit::annotations {

/// How a run's human and kbaudit verdicts compare, as `kbaudit score` counts them: kbaudit flags
/// a run when its verdict is a hack; runs whose human verdict is neither hack nor clean are
/// excluded.
enum class Agreement { NoTruth, NoHumanLabel, NotAudited, Excluded, Agree, ClassDiffers, Disagree };

/// "agree", "disagree", "class", ...: stable words for CSS classes, data attributes and CSV.
const char *agreementWord(Agreement a);
/// The same for a reader ("both hack, different class").
const char *agreementText(Agreement a);
/// "hack", "clean", "excluded", or "none" without an annotation.
const char *labelWord(const Annotation *a);

/// The five schema verdicts first, in this order, then any other word alphabetically.
bool verdictLess(const std::string &a, const std::string &b);
bool knownVerdict(const std::string &verdict);
const std::vector<std::string> &knownVerdicts();
/// "RH", "CL", ...; initials or the first three letters of other words; "?" for an empty one.
std::string verdictAbbrev(const std::string &verdict);

struct ReportRun {
  std::string id;
  const Annotation *pred = nullptr;  ///< kbaudit's annotation, null when it has none
  const Annotation *truth = nullptr; ///< the human one, null when none
  std::string model, problem, harness;
  Agreement agreement = Agreement::NoTruth;
  std::vector<std::string> rules;         ///< rules with any finding, sorted, distinct
  std::vector<std::string> decisiveRules; ///< rules with a decisive finding, sorted, distinct

  bool flagged() const; ///< kbaudit's verdict is a hack
};

/// A 95% confidence interval for a proportion.
struct Interval {
  double low = 0, high = 0;
};

/// The Wilson score interval (95%, z = 1.96) of `k` successes in `n` trials: unlike k/n +- z*se
/// it stays within [0, 1] and is honest for small n (1 of 1 is 20.7% to 100%, not 100%).
/// {0, 1} when n is 0.
Interval wilsonInterval(unsigned k, unsigned n);

/// Runs that share a model, a harness or a problem.
struct HackRate {
  std::string key;
  unsigned runs = 0;
  unsigned audited = 0;  ///< runs with a kbaudit annotation
  unsigned flagged = 0;  ///< ... whose verdict is a hack
  unsigned labelled = 0; ///< runs with a human verdict that is scored (hack or clean)
  unsigned humanHack = 0;
  unsigned agree = 0;    ///< scored runs where kbaudit and the humans agree on hack vs not hack

  double flaggedRate() const { return audited ? double(flagged) / audited : 0.0; }
  double humanHackRate() const { return labelled ? double(humanHack) / labelled : 0.0; }
  Interval flaggedInterval() const { return wilsonInterval(flagged, audited); }
  Interval humanHackInterval() const { return wilsonInterval(humanHack, labelled); }
};

struct RuleRow {
  std::string id, name, cls;
  unsigned findings = 0, decisive = 0, low = 0;
  unsigned runs = 0, decisiveRuns = 0;
  /// Human labels of the runs the rule decided (with human labels only).
  unsigned humanHack = 0, humanClean = 0, humanOther = 0;
  bool silent = false; ///< in the catalogue, no finding in this sweep
};

struct VerdictCount {
  std::string verdict;
  unsigned count = 0;
};

/// What the report is asked to do beyond the annotations (kbaudit report's options and config).
struct ReportOptions {
  /// A model spelling -> the name to show (the config's `model_aliases`), looked up before and
  /// after the normalisation of canonicalModel.
  std::map<std::string, std::string> modelAliases;
  /// Rates over fewer audited (or human-scored) runs than this are greyed: their interval is wide.
  unsigned minRuns = 5;
};

/// The name a model is grouped under. One model reaches a sweep under several spellings (a
/// header's `anthropic/claude-fable-5`, a run id's `anthropic_claude-fable-5` and
/// `claude-fable-5`), so: (1) the alias table's name for the spelling, if it has one; else
/// (2) the text after the last '/' (a provider or router path); (3) without leading
/// `provider_` words of known providers (a run id writes '/' as '_'; anthropic, openai, google,
/// deepseek, qwen, nvidia, zai, ...); (4) the alias table's name for that result, if any.
/// Spellings that then differ only in case are one model (buildReportModel shows the most
/// common spelling).
std::string canonicalModel(const std::string &model, const std::map<std::string, std::string> &aliases = {});

struct ReportModel {
  bool truthMode = false;
  unsigned minRuns = 5; ///< ReportOptions::minRuns
  std::size_t predCount = 0, truthCount = 0;
  std::vector<ReportRun> runs; ///< by run id
  std::vector<std::string> models;    ///< case-insensitively sorted
  std::vector<std::string> problems;  ///< sorted
  std::vector<std::string> harnesses; ///< sorted, without the empty one
  /// (model, problem) -> indices into runs, in run id order (so by date for corpus ids)
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> cells;
  /// (model, problem) -> cell number, in grid order (models, then problems)
  std::map<std::pair<std::string, std::string>, unsigned> cellIndex;

  std::vector<VerdictCount> kbauditVerdicts, humanVerdicts; ///< verdictLess order

  // With human labels only.
  std::optional<Score> score;
  unsigned unlabelled = 0; ///< audited runs without a human annotation
  std::vector<std::string> matrixHuman, matrixKbaudit; ///< verdicts, "(none)" last
  std::map<std::pair<std::string, std::string>, unsigned> matrix; ///< (human, kbaudit) -> runs

  std::vector<HackRate> byModel, byHarness, byProblem; ///< in the order of models, harnesses, problems
  std::vector<RuleRow> rules; ///< by runs decided, then findings; silent rules last
};

/// `pred` and `truth` are keyed by run id (as loadAnnotations returns them); the model points
/// into them, so they must outlive it. `truth` null: kbaudit verdicts only.
ReportModel buildReportModel(const std::map<std::string, Annotation> &pred,
                             const std::map<std::string, Annotation> *truth, const ReportOptions &options = {});

/// Human files hold prose in places ("01_fp8_gemm (problems-h100 deck, H100)"); the grid keys on
/// the first word.
std::string firstWord(const std::string &s);

} // namespace kbaudit::annotations
