#pragma once

// Findings -> verdict, plain-language summary, implication and verbatim quotes.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/annotations/run_id.h"
#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/finding.h"

#include <string>
#include <vector>

namespace kbaudit::annotations {

/// Run details that come from outside solution.py.
struct RunInfo {
  /// The run's name. Parsed to find its problem, never copied into the header fields below.
  RunId id;
  /// The header fields as the run carries them (its table row, result.json, meta.json), empty
  /// when it does not: the leaderboard's file never holds a guess.
  std::string model, harness, effort, problem;
  std::optional<double> peakFraction;
};

/// Quotes are capped so an annotation stays readable; a longer finding is quoted from its start.
inline constexpr unsigned kMaxQuoteLines = 15;
inline constexpr std::size_t kMaxQuotes = 5;

/// Builds the annotation. Findings below medium confidence are kept in the kbaudit block
/// for review but do not change the verdict. Unreadable input gives verdict `bug`.
/// `suite` (judgeBySuite's account of the run's suite profile) is recorded, and its notes on
/// findings it lowered are summarised. Where the facts do not cover the whole solution
/// (visibilityGaps) or `gaps` names parts not analysed (a retry without the C++/CUDA front end),
/// the run is incomplete (incomplete.h): never `clean`.
Annotation synthesize(const RunInfo &run, const Facts &facts, const rules::RuleResults &results,
                      const problems::ProblemContext *problem, const std::string &version,
                      const SuiteJudgement *suite = nullptr, std::vector<std::string> gaps = {});

/// An annotation for a run whose solution could not be found at all.
Annotation missingSolution(const RunInfo &run, const std::string &why, const std::string &version);

/// Verdict `bug` for a run kbaudit could not audit: `code` and `why` become its Error
/// diagnostic (a worker that crashed, ran out of time or memory, a solution refused).
Annotation unauditable(const RunInfo &run, const std::string &code, const std::string &why,
                       const std::string &version);

/// True when the finding may decide the verdict.
bool decisive(const rules::Finding &f);

} // namespace kbaudit::annotations
