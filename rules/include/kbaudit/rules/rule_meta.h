#pragma once

// Rule metadata, loaded from rules/<CATEGORY>/<ID>.yaml (compiled into the binary).
// Messages, summaries and implications live in the YAML, never in C++.

#include "kbaudit/problems/suite_profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules {

enum class VerdictClass { RewardHack, RubricLeak, Review };
enum class Confidence { Low, Medium, High };

const char *verdictClassName(VerdictClass v); ///< "reward_hack", "rubric_leak", "review"
const char *confidenceName(Confidence c);     ///< "low", "medium", "high"

/// A fixture file shipped with a rule, shown on its doc page.
struct RuleExample {
  std::string file; ///< "bad_torch_wrapper.py"
  std::string content; ///< the fixture file as the docs show it (not read by any rule)
  bool bad = false;
  bool operator==(const RuleExample &) const = default;
};

/// What the runtime says about a rule (`runtime:` in the YAML). This is the one place that
/// links runtime evidence to rules: a probe reports what it observed (its name and, where it
/// can see more than one thing, an observation: `timing` with `fresh-inputs`), never a rule id,
/// and the event kinds are the worker's words for what the solution did.
struct RuntimeLinks {
  /// `probe` or `probe/observation` whose finding is evidence for the rule ("differential",
  /// "timing/fresh-inputs"); a plain `probe` is the probe's outcome without an observation.
  std::vector<std::string> confirmedBy;
  /// Probes whose pass, judged outside the solution's process, answers the rule's question and
  /// so lowers its static findings to review.
  std::vector<std::string> clearedBy;
  /// Probes whose findings this rule's confirmed finding explains: one cause, one rule (output
  /// left unwritten makes every numeric probe's answer wrong, which is not a precision loss).
  std::vector<std::string> explains;
  /// Runtime event kinds (kbaudit_probe/events.py, state_watch.py) that are evidence for it.
  std::vector<std::string> events;
  bool empty() const { return confirmedBy.empty() && clearedBy.empty() && explains.empty() && events.empty(); }
  bool operator==(const RuntimeLinks &) const = default;
};

struct RuleMeta {
  std::string id;       ///< "WRAP001"
  std::string name;     ///< "no-authored-kernel"
  std::string category; ///< "WRAP"
  VerdictClass verdict = VerdictClass::Review;
  Confidence confidence = Confidence::Medium;
  /// The contract term a finding breaks, or the grader check it defeats; the run's suite
  /// profile decides what that costs (problems/suites/*.yaml).
  problems::Term term = problems::Term::Correctness;
  /// Finding message with `{placeholder}`s the check fills in.
  std::string message;
  /// One sentence for the annotation summary, in plain language.
  std::string summary;
  /// What the finding means for how the score should be read.
  std::string implication;
  /// Proof of harm: the one harm the rule claims, stated so facts or runtime evidence can
  /// establish it ("forward can return a value computed for other input contents").
  std::string consequence;
  /// What the facts must establish for a medium/high (decisive) finding; anything less is
  /// reported at low confidence, for review.
  std::string decisiveWhen;
  /// The finding rests on something not being there (no authored kernel reached, no write to
  /// the output, no join of a worker): `rests_on: absence` in the YAML. Where part of the
  /// solution was not analysed the missing part may hold it, so the finding is left for review;
  /// a finding that rests on what was seen (`presence`, the default) still decides.
  bool restsOnAbsence = false;
  std::string rationale;
  std::vector<std::string> references;
  std::vector<std::string> needs; ///< python, cxx, triton, problem, runtime
  /// Words with which a solution describes this behaviour itself ("bf16", "cuBLAS"): when its
  /// module docstring uses one, the annotation quotes that description next to the findings.
  std::vector<std::string> admissions;
  RuntimeLinks runtime;
  std::vector<RuleExample> examples;
  /// Every field (the compiled catalogue is checked against the YAML with it).
  bool operator==(const RuleMeta &) const = default;
};

/// Every rule's metadata, sorted by id: the embedded YAML as parsed at build time, with the
/// fixtures as examples.
const std::vector<RuleMeta> &catalogue();
/// nullptr when unknown.
const RuleMeta *findRule(std::string_view id);

/// Parses one metadata document; throws std::runtime_error naming the missing field.
RuleMeta parseRuleMeta(std::string_view yaml);

/// The rule's doc page (docs/rules/<ID>.md): metadata, rationale and the fixtures.
std::string renderRuleDoc(const RuleMeta &meta);

} // namespace kbaudit::rules
