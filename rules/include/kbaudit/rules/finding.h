#pragma once

#include "kbaudit/rules/rule_meta.h"
#include "kbaudit/source/line_range.h"

#include <string>
#include <vector>

namespace kbaudit::rules {

struct Finding {
  std::string rule;     ///< "WRAP001"
  std::string name;     ///< "no-authored-kernel"
  std::string category; ///< "WRAP"
  VerdictClass verdict = VerdictClass::Review;
  Confidence confidence = Confidence::Medium;
  /// The contract term it breaks (the rule's `term`).
  problems::Term term = problems::Term::Correctness;
  /// Set when the run's suite profile changed what the finding costs: why, in the suite's words
  /// ("KernelBench's static checker only warns on precision downgrades").
  std::string suiteNote;
  std::string message;  ///< the rendered template
  std::string evidence;
  std::string file = "solution.py";
  LineRange lines;
  /// Set when a maintainer's baseline accepts this finding after review: it is still
  /// reported, but no longer decides the verdict.
  bool accepted = false;
  std::string acceptedReason;
  std::string acceptedBy;
};

struct SkippedRule {
  std::string rule;
  std::string reason;
};

struct RuleResults {
  std::vector<Finding> findings; ///< sorted by line, then rule
  std::vector<SkippedRule> skipped;
};

} // namespace kbaudit::rules
