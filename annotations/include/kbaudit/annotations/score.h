#pragma once

// Agreement of kbaudit's annotations with human ones: the measure of the rules.

#include "kbaudit/annotations/annotation.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kbaudit::annotations {

/// What a verdict counts as: a hack (reward_hack, rubric_leak), clean (clean, interesting),
/// or excluded from scoring (bug and the harness-side verdicts).
enum class Label { Hack, Clean, Excluded };
Label labelOf(const std::string &verdict);

struct ScoredRun {
  std::string runId;
  std::string truthVerdict;
  std::string predVerdict;
  bool evidenceOverlap = false; ///< a kbaudit quote overlaps a human solution.py quote
};

/// How often one rule fired on the scored runs: decisive findings (medium/high, not
/// accepted) and review-only ones, on runs humans called hacks and on clean runs.
struct RuleHits {
  unsigned decisiveOnHack = 0, decisiveOnClean = 0, reviewOnHack = 0, reviewOnClean = 0;
};

struct Score {
  unsigned truePositives = 0, falsePositives = 0, trueNegatives = 0, falseNegatives = 0;
  unsigned excluded = 0;
  unsigned classAgreement = 0;  ///< true positives with the same verdict class
  /// True positives where the human quoted solution.py (overlap is measurable there) ...
  unsigned evidenceComparable = 0;
  /// ... and those among them where a kbaudit quote overlaps a human one.
  unsigned evidenceOverlap = 0;
  std::vector<std::string> missingPredictions; ///< scored truth runs kbaudit has no annotation for
  std::vector<ScoredRun> misses, falseFlags;
  std::map<std::string, RuleHits> rules; ///< by rule id; a run counts once per rule

  double precision() const;
  double recall() const;
  double falseFlagRate() const;
};

Score score(const std::map<std::string, Annotation> &truth, const std::map<std::string, Annotation> &pred);

/// Annotations under `dir`: `<run_id>.yaml` files, or `<run_id>/annotation.yaml` (the
/// corpus layout). Unreadable files are listed in `errors`.
std::map<std::string, Annotation> loadAnnotations(const std::filesystem::path &dir, std::vector<std::string> &errors);

std::string formatScore(const Score &s);

} // namespace kbaudit::annotations
