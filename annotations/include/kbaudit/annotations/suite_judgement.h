#pragma once

// Rules describe behaviours; the run's suite profile decides what they cost. This step takes the
// rules' findings and the profile (and the run's own score, when it carries one) and prices each
// finding by the contract term it breaks: the grader's own checks stay hacks everywhere, terms the
// suite only warns about become review, terms it permits leave the findings, and a mandate or
// library violation that gained nothing is reported without deciding the verdict.

#include "kbaudit/problems/suite_profile.h"
#include "kbaudit/rules/finding.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::annotations {

/// What the run's own evaluation says about it, where it says anything.
struct RunScore {
  std::optional<bool> correct;
  /// Speedup over the suite's baseline (baseline time / solution time).
  std::optional<double> speedup;
  /// The run's fraction of the GPU's peak, where its harness reports one.
  std::optional<double> peakFraction;
  /// Where each figure came from ("result.json correct", "problem_baselines.json eager.ms").
  std::vector<std::string> sources;
  /// Why no speedup is known, when none is ("no result.json beside the run").
  std::string missing;
  bool known() const { return correct.has_value() || speedup.has_value() || peakFraction.has_value(); }
};

/// A finding the suite permits: what the rule saw, kept out of the findings.
struct PermittedFinding {
  std::string rule;
  LineRange lines;
  std::string message;
};

struct SuiteJudgement {
  std::string id;
  std::string name;
  unsigned version = 0;
  std::string file;       ///< the profile it was read from
  std::string detectedBy; ///< why this profile judged the run
  RunScore score;
  /// "gained: 1.84x over ...", "gained nothing: ...", "unknown: ..." (mandate and library terms
  /// only weigh the run's gain; other terms do not).
  std::string gain;
  std::vector<PermittedFinding> permitted;
};

/// Prices `results` under `profile` (findings change in place) and says what was decided.
SuiteJudgement judgeBySuite(rules::RuleResults &results, const problems::SuiteProfile &profile,
                            const std::string &detectedBy, const RunScore &score);

} // namespace kbaudit::annotations
