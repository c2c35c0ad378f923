#pragma once

// What the runtime-probe tests share: the probes' default interpreter and the skip they take,
// saying why, where it cannot import torch (setup.sh creates the project's .venv unless
// KBAUDIT_STATIC_ONLY=1).

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/runtime/probe.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

namespace kbaudit::test {

inline const std::string &probePython() {
  static const std::string python = runtime::defaultPython().string();
  return python;
}

inline bool torchAvailable() {
  static const bool ok = runCommand(probePython() + " -c 'import torch' >/dev/null 2>&1") == 0;
  return ok;
}

/// The probes on CPU, seeds 0 and 1, over tests/runtime/solutions/SOLUTION against
/// tests/runtime/problems/PROBLEM.
inline runtime::RuntimeReport probeFixture(const std::string &solution, const std::string &problem,
                                           std::chrono::seconds wall) {
  const std::filesystem::path root = std::filesystem::path(KBAUDIT_SOURCE_DIR) / "tests" / "runtime";
  runtime::ProbeOptions options;
  options.device = "cpu";
  options.python = probePython();
  options.seeds = {0, 1};
  options.limits.wall = wall;
  return runtime::runProbes(root / "solutions" / solution, problems::loadProblem(root / "problems" / problem),
                            options);
}

/// The outcome of the probe called `name`, or nullptr when the report has none.
inline const runtime::ProbeOutcome *findProbe(const runtime::RuntimeReport &r, const std::string &name) {
  for (const runtime::ProbeOutcome &p : r.probes)
    if (p.name == name)
      return &p;
  return nullptr;
}

} // namespace kbaudit::test

#define REQUIRE_TORCH()                                                                                            \
  do {                                                                                                             \
    if (!kbaudit::test::torchAvailable()) {                                                                        \
      GTEST_SKIP() << kbaudit::test::probePython()                                                                 \
                   << " cannot import torch (run setup.sh without KBAUDIT_STATIC_ONLY=1 to create the project's " \
                   << ".venv): the runtime probes cannot run here";                                                \
    }                                                                                                              \
  } while (false)
