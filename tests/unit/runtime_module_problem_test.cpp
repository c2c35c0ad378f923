// The runtime probes on a KernelBench / v3 module problem (`<level>/<N>_<Name>.py`, no
// reference.py): the module is what the probe compares against. Needs torch in the probes'
// default interpreter (the project's .venv) and skips, saying so, without it.

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/runtime/probe.h"

#include "runtime_support.h"

#include <gtest/gtest.h>

using namespace kbaudit;
namespace fs = std::filesystem;

namespace {

TEST(RuntimeModuleProblem, ProbesCompareAgainstTheModule) {
  REQUIRE_TORCH();
  const fs::path examples = fs::path(KBAUDIT_SOURCE_DIR) / "examples";
  runtime::ProbeOptions options;
  options.device = "cpu";
  options.python = test::probePython();
  options.seeds = {0};
  options.limits.wall = std::chrono::seconds(90);
  const problems::ProblemContext problem = problems::loadProblem(examples / "v3-problems/level1/7_RowSoftmax.py");
  // A torch-only solution stored as the v3 dataset stores them (`*.py.txt`).
  const runtime::RuntimeReport r =
      runtime::runProbes(examples / "v3-dataset/solutions/demo-wrapper_H100_7_RowSoftmax.py.txt", problem, options);
  ASSERT_EQ(r.outcome, "ran") << r.reason;
  bool differential = false;
  for (const runtime::ProbeOutcome &p : r.probes)
    if (p.name == "differential") {
      differential = true;
      EXPECT_EQ(p.status, "passed") << p.reason;
    }
  EXPECT_TRUE(differential);
}

} // namespace
