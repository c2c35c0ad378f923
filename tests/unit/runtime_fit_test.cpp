// Probes that fit the machine (issue 26): a reference too big for a float64 oracle runs against a
// float32 one and says so; a forward with extra arguments gets them from get_inputs(); a worker
// that crashes is reported with its signal and the run keeps its annotation; under Triton's
// interpreter a store past an argument's end is caught and noted instead of corrupting the
// worker, and a kept CompiledKernel handle relaunches. Fixtures: tests/runtime/problems/{
// fit_fp64_too_big, tiny_extra_args} and the solutions named below (no corpus file).

#include "kbaudit/cli/cli.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/runtime/probe.h"

#include "runtime_support.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace kbaudit;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

const fs::path kRuntime = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "runtime";

runtime::RuntimeReport probe(const std::string &solution, const std::string &problem) {
  return test::probeFixture(solution, problem, 90s);
}

const runtime::ProbeOutcome *find(const runtime::RuntimeReport &r, const std::string &name) {
  return test::findProbe(r, name);
}

std::string describe(const runtime::RuntimeReport &r) {
  std::ostringstream s;
  s << "outcome " << r.outcome << " (" << r.reason << "), " << r.seconds << " s\n";
  for (const std::string &n : r.notes)
    s << "  note " << n << "\n";
  for (const runtime::ProbeOutcome &p : r.probes)
    s << "  " << p.name << ": " << p.status << " " << p.rule << " " << p.reason << "\n";
  return s.str();
}

bool hasNote(const runtime::RuntimeReport &r, const std::string &part) {
  for (const std::string &n : r.notes)
    if (n.find(part) != std::string::npos)
      return true;
  return false;
}

void expectPassed(const runtime::RuntimeReport &r, const std::string &name) {
  const runtime::ProbeOutcome *p = find(r, name);
  ASSERT_NE(p, nullptr) << name << " missing\n" << describe(r);
  EXPECT_EQ(p->status, "passed") << name << "\n" << describe(r);
}

} // namespace

TEST(RuntimeFit, ReferenceTooBigForFloat64RunsAgainstAFloat32OracleAndSaysSo) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe("honest_fp64_too_big", "fit_fp64_too_big");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  // The note names the oracle's precision and why float64 was not used.
  EXPECT_TRUE(hasNote(r, "oracle: the reference in float32")) << describe(r);
  EXPECT_TRUE(hasNote(r, "allocate")) << describe(r);
  // The float32 oracle's error model keeps an honest fp32 solution (another summation order)
  // within the limit.
  expectPassed(r, "differential");
  expectPassed(r, "memoization");
}

TEST(RuntimeFit, ExtraForwardArgumentsComeFromGetInputs) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe("honest_extra_args", "tiny_extra_args");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  for (const char *name : {"differential", "adversarial", "memoization", "caller_context", "parameters"})
    expectPassed(r, name);
}

TEST(RuntimeFit, AWorkerCrashIsReportedWithItsSignalAndTheRunIsKept) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe("hostile_abort_in_forward", "tiny_softmax");
  EXPECT_EQ(r.outcome, "aborted") << describe(r);
  EXPECT_NE(r.reason.find("signal 6"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("Aborted"), std::string::npos) << r.reason;
  // Through `check --runtime` the annotation is still written, with the signal in its runtime block.
  std::ostringstream out, err;
  cli::run({"check", (kRuntime / "solutions" / "hostile_abort_in_forward" / "solution.py").string(), "--problem",
            (kRuntime / "problems" / "tiny_softmax").string(), "--runtime", "--device", "cpu", "--format", "yaml"},
           out, err);
  const std::string yaml = out.str();
  EXPECT_NE(yaml.find("\n  runtime:\n    outcome: aborted\n"), std::string::npos) << yaml << err.str();
  EXPECT_NE(yaml.find("signal 6 (Aborted)"), std::string::npos) << yaml;
}

TEST(RuntimeFit, AnInterpretedStorePastTheEndIsCaughtAndNoted) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe("honest_triton_unmasked_tail", "tiny_gelu");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_EQ(r.device, "cpu (triton interpreter)");
  EXPECT_TRUE(hasNote(r, "out-of-bounds store: Triton kernel gelu_kernel wrote 8192 bytes after")) << describe(r);
  // The stores in bounds are right, and the dropped ones touched nothing of the probe's.
  expectPassed(r, "differential");
  expectPassed(r, "uninitialized_output");
  expectPassed(r, "kernel_ablation");
}

TEST(RuntimeFit, AKeptCompiledKernelHandleRelaunchesUnderTheInterpreter) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe("honest_triton_handle_relaunch", "tiny_gelu");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_FALSE(hasNote(r, "out-of-bounds")) << describe(r);
  for (const char *name : {"differential", "memoization", "call_count"})
    expectPassed(r, name);
  // Relaunches through the handle are launches too: disabling them breaks the output.
  expectPassed(r, "kernel_ablation");
}

TEST(RuntimeFit, AReusedOutputBufferIsNeitherAStoredResultNorTampering) {
  REQUIRE_TORCH();
  // Outputs kept across calls are snapshots: the worker used to judge seed 0's output after seed
  // 1's call had overwritten it (a "stored result"), while the judge, from the witnessed bytes,
  // said passed, and the disagreement was reported as tampering (RUB012, high) on two clean
  // corpus runs.
  const runtime::RuntimeReport r = probe("honest_reused_output_buffer", "tiny_softmax");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  for (const char *name : {"differential", "caller_context", "memoization", "call_count"})
    expectPassed(r, name);
  for (const runtime::RuntimeEvent &e : r.events)
    EXPECT_NE(e.kind, "tampering") << e.detail;
}
