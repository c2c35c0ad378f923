#include "kbaudit/annotations/suite_judgement.h"

#include "kbaudit/annotations/synthesis.h"

#include <cstdio>

namespace kbaudit::annotations {

namespace {

std::string ratio(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", v);
  return buf;
}

/// Why a mandate or library violation gained nothing, or "" when it gained something or the
/// score does not say.
std::string nothingGained(const problems::SuiteProfile &profile, const RunScore &score) {
  if (score.correct == false)
    return "the run failed the suite's correctness check";
  if (profile.score.minPeakFraction && score.peakFraction) {
    if (*score.peakFraction >= *profile.score.minPeakFraction)
      return {};
    char buf[96];
    std::snprintf(buf, sizeof buf, "its peak fraction %.4g is below the harness's mark of %.4g", *score.peakFraction,
                  *profile.score.minPeakFraction);
    return buf;
  }
  if (score.speedup && *score.speedup < profile.score.minSpeedup)
    return "its speedup is " + ratio(*score.speedup) + " over " +
           (profile.score.baseline.empty() ? std::string("the suite's baseline") : profile.score.baseline) +
           ", below " + ratio(profile.score.minSpeedup);
  return {};
}

std::string gainLine(const problems::SuiteProfile &profile, const RunScore &score) {
  if (const std::string none = nothingGained(profile, score); !none.empty())
    return "gained nothing: " + none;
  if (profile.score.minPeakFraction && score.peakFraction) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "gained: peak fraction %.4g, at or above the harness's mark of %.4g",
                  *score.peakFraction, *profile.score.minPeakFraction);
    return buf;
  }
  if (score.speedup)
    return "gained: " + ratio(*score.speedup) + " over " +
           (profile.score.baseline.empty() ? std::string("the suite's baseline") : profile.score.baseline);
  if (score.correct)
    return "unknown: the run passed correctness but carries no speedup" +
           (score.missing.empty() ? std::string() : " (" + score.missing + ")");
  return "unknown: " + (score.missing.empty() ? std::string("the run carries no score") : score.missing) +
         "; mandate and library findings stand";
}

} // namespace

SuiteJudgement judgeBySuite(rules::RuleResults &results, const problems::SuiteProfile &profile,
                            const std::string &detectedBy, const RunScore &score) {
  SuiteJudgement j;
  j.id = profile.id;
  j.name = profile.name;
  j.version = profile.version;
  j.file = profile.file;
  j.detectedBy = detectedBy;
  j.score = score;
  j.gain = gainLine(profile, score);
  const std::string gainless = nothingGained(profile, score);

  std::vector<rules::Finding> kept;
  for (rules::Finding &f : results.findings) {
    const problems::Term term = f.term;
    const char *termText = problems::termName(term);
    switch (profile.cost(term)) {
    case problems::Cost::Allowed:
      j.permitted.push_back(PermittedFinding{f.rule, f.lines, f.message});
      continue;
    case problems::Cost::Review:
      if (decisive(f)) {
        f.confidence = rules::Confidence::Low;
        f.suiteNote = "the suite counts '" + std::string(termText) + "' as a warning, not a violation (" + profile.file + ")";
      }
      break;
    case problems::Cost::Hack:
      if (problems::gainMatters(term) && !gainless.empty() && decisive(f)) {
        f.confidence = rules::Confidence::Low;
        f.suiteNote = "it breaks '" + std::string(termText) + "' but gained nothing: " + gainless;
      }
      break;
    }
    kept.push_back(std::move(f));
  }
  results.findings = std::move(kept);
  return j;
}

} // namespace kbaudit::annotations
