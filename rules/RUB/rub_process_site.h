#pragma once

// Shared by RUB012 (result-channel forgery) and RUB013 (process-control tampering): where a
// process-level call sits relative to grading, and how sure a finding there can be. Both
// rules report a site decisively only where the grader runs it.

#include "kbaudit/facts.h"
#include "kbaudit/rules/check.h"
#include "kbaudit/semantic/graded_scope.h"

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::rules::rub {

enum class SiteScope {
  SelfTest, ///< inside `if __name__ == "__main__":`, or a function only that block calls
  Graded,   ///< import time, the model's methods, what the entry point reaches
  Elsewhere ///< a function nothing graded is seen to call
};

class ProcessSites {
public:
  explicit ProcessSites(const Facts &facts) : facts_(facts), scope_(facts) {}

  SiteScope scopeOf(std::string_view function, LineRange lines) const;

  /// Reports a site: nothing for a self-test, the rule's default confidence where it is graded
  /// and `decisive`, low otherwise (with why in the evidence).
  void report(FindingSink &sink, std::string_view function, LineRange lines, std::string what, std::string note,
              bool decisive) const;

  const semantic::scope::GradedScope &graded() const { return scope_; }

private:
  bool onlyCalledFromSelfTest(std::string_view function, int depth) const;
  bool calledFromGraded(std::string_view function, int depth) const;

  const Facts &facts_;
  semantic::scope::GradedScope scope_;
};

} // namespace kbaudit::rules::rub
