// The probes build and call the models as the run's suite grades them (the profile's `harness:`
// and `terms:`): training or eval mode, who sees the inputs first, whether correctness beyond the
// suite's own inputs is a hack there, and a reference scaled down to fit the machine. Each test
// runs the sandboxed worker over a solution and problem of tests/runtime/ with a suite profile
// applied to the problem, as `audit` does after detecting the suite.

#include "kbaudit/annotations/runtime_evidence.h"
#include "kbaudit/annotations/suite_judgement.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/rule_meta.h"
#include "kbaudit/rules/runtime_links.h"
#include "kbaudit/runtime/probe.h"

#include "runtime_support.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace kbaudit;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

const fs::path kRuntime = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "runtime";

/// The probes on CPU over SOLUTION against PROBLEM graded as SUITE ("" for no suite).
runtime::RuntimeReport probeAs(const std::string &solution, const std::string &problem, const std::string &suite,
                               std::chrono::seconds wall = 90s) {
  problems::ProblemContext context = problems::loadProblem(kRuntime / "problems" / problem);
  if (!suite.empty()) {
    const problems::ProfileSet set = problems::loadProfiles({});
    const problems::SuiteProfile *profile = set.find(suite);
    EXPECT_NE(profile, nullptr) << suite;
    if (profile)
      problems::applyProfile(context, *profile);
  }
  runtime::ProbeOptions options;
  options.device = "cpu";
  options.python = test::probePython();
  options.seeds = {0, 1};
  options.limits.wall = wall;
  return runtime::runProbes(kRuntime / "solutions" / solution, context, options);
}

std::string describe(const runtime::RuntimeReport &r) {
  std::ostringstream s;
  s << "outcome " << r.outcome << " (" << r.reason << ")\n";
  for (const runtime::ProbeOutcome &p : r.probes)
    s << "  " << p.name << ": " << p.status << " [" << p.check << "] " << p.rule << " " << p.reason << "\n";
  for (const std::string &n : r.notes)
    s << "  note " << n << "\n";
  for (const runtime::RuntimeEvent &e : r.events)
    s << "  event " << e.kind << ": " << e.detail << "\n";
  return s.str();
}

bool noted(const runtime::RuntimeReport &r, const std::string &part) {
  for (const std::string &n : r.notes)
    if (n.find(part) != std::string::npos)
      return true;
  return false;
}

const runtime::ProbeOutcome &probeNamed(const runtime::RuntimeReport &r, const std::string &name) {
  static const runtime::ProbeOutcome none = [] {
    runtime::ProbeOutcome o;
    o.name = "(missing)";
    o.status = "missing";
    return o;
  }();
  const runtime::ProbeOutcome *p = test::findProbe(r, name);
  return p ? *p : none;
}

} // namespace

// KernelBench never calls eval(): its reference's BatchNorm normalises by the batch's statistics.
// A BatchNorm folded with the running statistics (eval mode's) is the train/eval split; inputs
// of another mean or spread separate it, and the probe names the cause.
TEST(RuntimeHarness, RunningStatisticsBatchNormIsATrainEvalSplitUnderKernelBench) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probeAs("hack_bn_running_stats", "tiny_batchnorm", "kernelbench");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(noted(r, "models in train mode, as kernelbench's harness runs them")) << describe(r);
  const runtime::ProbeOutcome &d = probeNamed(r, "distributions");
  EXPECT_EQ(d.status, "finding") << describe(r);
  EXPECT_EQ(d.check, "") << "the train/eval split is the probe's own question\n" << describe(r);
  EXPECT_NE(d.reason.find("matches the reference in eval mode"), std::string::npos) << d.reason;
  // The rule is the catalogue's: RUB016 where it links `distributions`.
  const rules::RuleMeta *linked = rules::ruleConfirmedBy("distributions", "");
  EXPECT_EQ(d.rule, linked ? linked->id : "") << describe(r);

  // Graded as KernelBench-Hard grades (both models in eval mode), the same solution is right.
  const runtime::RuntimeReport hard = probeAs("hack_bn_running_stats", "tiny_batchnorm", "kernelbench-hard");
  ASSERT_EQ(hard.outcome, "ran") << describe(hard);
  for (const runtime::ProbeOutcome &p : hard.probes)
    EXPECT_NE(p.status, "finding") << describe(hard);
}

TEST(RuntimeHarness, AnHonestBatchNormPassesInEitherMode) {
  REQUIRE_TORCH();
  for (const std::string suite : {"kernelbench", "kernelbench-hard"}) {
    const runtime::RuntimeReport r = probeAs("honest_bn_batch_stats", "tiny_batchnorm", suite);
    ASSERT_EQ(r.outcome, "ran") << suite << "\n" << describe(r);
    for (const runtime::ProbeOutcome &p : r.probes)
      EXPECT_NE(p.status, "finding") << suite << "\n" << describe(r);
    EXPECT_EQ(probeNamed(r, "distributions").status, "passed") << describe(r);
  }
}

// Where the grader calls the reference first on the inputs both get (KernelBench), a solution
// that computes into its input and returns it cannot change the answer it is compared with: legal
// while every call does the full work. One that skips the work on an input it already processed
// (the timed loop reuses its inputs) is not.
TEST(RuntimeHarness, AliasingAsksTheSuitesCallOrder) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport inPlace = probeAs("hack_return_input", "tiny_gelu", "kernelbench");
  ASSERT_EQ(inPlace.outcome, "ran") << describe(inPlace);
  const runtime::ProbeOutcome &legal = probeNamed(inPlace, "aliasing");
  EXPECT_EQ(legal.status, "passed") << describe(inPlace);
  EXPECT_NE(legal.reason.find("calls the reference first"), std::string::npos) << legal.reason;
  EXPECT_NE(legal.reason.find("full work"), std::string::npos) << legal.reason;
  EXPECT_EQ(legal.numbers.at("first_call_ops"), legal.numbers.at("second_call_ops"));

  const runtime::RuntimeReport skips = probeAs("hack_alias_skips_work", "tiny_gelu", "kernelbench");
  ASSERT_EQ(skips.outcome, "ran") << describe(skips);
  const runtime::ProbeOutcome &found = probeNamed(skips, "aliasing");
  EXPECT_EQ(found.status, "finding") << describe(skips);
  EXPECT_EQ(found.rule, "MEM003");
  EXPECT_NE(found.reason.find("skips work"), std::string::npos) << found.reason;

  // With no suite, whose order is unknown, returning a written input stays MEM003.
  const runtime::RuntimeReport unknown = probeAs("hack_return_input", "tiny_gelu", "");
  EXPECT_EQ(probeNamed(unknown, "aliasing").status, "finding") << describe(unknown);
}

// Correctness beyond the suite's own inputs is a term each profile prices: KernelBench holds a
// solution to the reference's function (a hack), GPU MODE to its tests (for review).
TEST(RuntimeHarness, TheSuitePricesCorrectnessOffItsTestDistribution) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probeAs("hack_norm_wrong_axes", "tiny_layernorm", "kernelbench");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::ProbeOutcome &d = probeNamed(r, "distributions");
  ASSERT_EQ(d.status, "finding") << describe(r);
  EXPECT_EQ(d.check, "normalization");
  EXPECT_EQ(d.rule, "WRAP008");
  const problems::ProfileSet set = problems::loadProfiles({});
  for (const auto &[suite, confidence] : {std::pair{"kernelbench", rules::Confidence::High},
                                          std::pair{"gpumode", rules::Confidence::Low}}) {
    rules::RuleResults results;
    annotations::applyRuntime(results, r);
    ASSERT_EQ(results.findings.size(), 1u) << suite << "\n" << describe(r);
    EXPECT_EQ(results.findings[0].term, problems::Term::TestDistribution);
    annotations::judgeBySuite(results, *set.find(suite), "test", {});
    ASSERT_EQ(results.findings.size(), 1u) << suite;
    EXPECT_EQ(results.findings[0].confidence, confidence) << suite;
    if (confidence == rules::Confidence::Low) {
      EXPECT_NE(results.findings[0].suiteNote.find("test-distribution"), std::string::npos)
          << results.findings[0].suiteNote;
    }
  }
}

// A decode step whose model, at the listed shape, holds more memory than the sandbox leaves:
// the probe divides the shape's sizes and says so.
TEST(RuntimeHarness, AConfigStateReferenceTooBigForTheMachineIsScaledDownAndSaysSo) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probeAs("honest_config_state", "fit_config_state", "kernelbench-hard", 120s);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(noted(r, "ran at shape context_len=8,n_experts=64 (divided by 8 from the smallest listed "
                       "context_len=64,n_experts=512"))
      << describe(r);
  EXPECT_EQ(probeNamed(r, "differential").status, "passed") << describe(r);
  EXPECT_TRUE(probeNamed(r, "differential").verified) << "the judge rebuilt the same scaled reference\n"
                                                      << describe(r);
  // The decode step updates the state it is handed, as the reference does: not the probe's state.
  EXPECT_TRUE(r.events.empty()) << describe(r);
}
