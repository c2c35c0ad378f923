#pragma once

// The problem a rule fixture is graded against: `# problem: <name>` names tests/problems/<name>/
// (problem.yaml + reference.py) or the module tests/problems/<name>.py, as `--problem` would, and
// `# suite: <id>` grades it by that suite profile's harness, as `--suite` would. Shared by the
// fixture test and the rewrite-invariance test (whose rewritten fixtures keep these lines).

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/problems/suite_profile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <regex>
#include <string>

namespace kbaudit::test {

inline std::optional<problems::ProblemContext> fixtureProblem(const std::string &text) {
  static const std::regex marker("# problem: ([A-Za-z0-9_]+)");
  std::smatch m;
  if (!std::regex_search(text, m, marker))
    return std::nullopt;
  // tests/problems/<name>/ (problem.yaml + reference.py), or a KernelBench-style module
  // tests/problems/<name>.py as KernelBench-v3 ships its problems.
  const std::filesystem::path base = std::filesystem::path(KBAUDIT_SOURCE_DIR) / "tests" / "problems" / m[1].str();
  const std::filesystem::path module = std::filesystem::path(base.string() + ".py");
  problems::ProblemContext problem = problems::loadProblem(std::filesystem::is_regular_file(module) ? module : base);
  // `# suite: <id>` grades the fixture by that suite profile's harness (how weights are shared,
  // whether precision is declared), as `--suite` would; without it the layout's defaults hold.
  static const std::regex suiteMarker("# suite: ([a-z0-9-]+)");
  if (std::regex_search(text, m, suiteMarker)) {
    const problems::SuiteProfile *profile = nullptr;
    for (const problems::SuiteProfile &p : problems::builtinProfiles())
      if (p.id == m[1].str())
        profile = &p;
    EXPECT_NE(profile, nullptr) << "unknown suite profile '" << m[1].str() << "'";
    if (profile)
      problems::applyProfile(problem, *profile);
  }
  return problem;
}

/// The suite profile a fixture's `# suite: <id>` line names (its gate is RUB017's), with or
/// without a `# problem:` line; nullptr when the fixture names none.
inline const problems::SuiteProfile *fixtureSuite(const std::string &text) {
  static const std::regex suiteMarker("# suite: ([a-z0-9-]+)");
  std::smatch m;
  if (!std::regex_search(text, m, suiteMarker))
    return nullptr;
  for (const problems::SuiteProfile &p : problems::builtinProfiles())
    if (p.id == m[1].str())
      return &p;
  ADD_FAILURE() << "unknown suite profile '" << m[1].str() << "'";
  return nullptr;
}

} // namespace kbaudit::test
