// The runtime probes over the synthetic problems and solutions in tests/runtime/: honest
// solutions pass every probe, each hacking solution is caught by the probe written for it, and
// hostile solutions end as a clear outcome (aborted, a finding or an event), never a hang, a
// crash or a forged result. Also parseAnswer on forged and malformed answers (no torch needed)
// and the `kbaudit probe` / `check --runtime` command line.
//
// Tests that run the probe need torch in the probes' default interpreter (the project's .venv,
// which setup.sh creates unless KBAUDIT_STATIC_ONLY=1) and skip, saying so, where it is missing.

#include "kbaudit/annotations/runtime_evidence.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/runtime/probe.h"

#include "runtime_support.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace kbaudit;
using namespace std::chrono_literals;
using kbaudit::test::readFile;
using kbaudit::test::runCommand;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;
namespace fs = std::filesystem;

namespace {

const fs::path kRuntime = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "runtime";
const std::string kPython = kbaudit::test::probePython();


fs::path problemDir(const std::string &name) { return kRuntime / "problems" / name; }
fs::path solutionDir(const std::string &name) { return kRuntime / "solutions" / name; }

runtime::RuntimeReport probe(const fs::path &solution, const std::string &problem,
                             std::chrono::seconds wall = 60s, std::vector<int> seeds = {0, 1}) {
  runtime::ProbeOptions options;
  options.device = "cpu"; // the same probes on a machine with a GPU
  options.python = kPython;
  options.seeds = std::move(seeds);
  options.limits.wall = wall;
  return runtime::runProbes(solution, problems::loadProblem(problemDir(problem)), options);
}

const runtime::ProbeOutcome *find(const runtime::RuntimeReport &r, const std::string &name) {
  return test::findProbe(r, name);
}

std::string describe(const runtime::RuntimeReport &r) {
  std::ostringstream s;
  s << "outcome " << r.outcome << " (" << r.reason << "), " << r.seconds << " s\n";
  for (const runtime::ProbeOutcome &p : r.probes)
    s << "  " << p.name << ": " << p.status << " " << p.rule << " " << p.reason << "\n";
  for (const runtime::RuntimeEvent &e : r.events)
    s << "  event " << e.kind << ": " << e.detail << "\n";
  return s.str();
}

bool hasEvent(const runtime::RuntimeReport &r, const std::string &kind, const std::string &detailPart) {
  for (const runtime::RuntimeEvent &e : r.events)
    if (e.kind == kind && e.detail.find(detailPart) != std::string::npos)
      return true;
  return false;
}

/// A copy of a solution with one string constant replaced (a unique path per test run, so
/// concurrent runs of the suite do not share marker files).
fs::path copyWith(const TempDir &dir, const std::string &solution, const std::string &from, const std::string &to) {
  std::string text = readFile(solutionDir(solution) / "solution.py");
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in " << solution;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  const fs::path out = dir / solution / "solution.py";
  writeFile(out, text);
  return out;
}

std::string framed(const std::string &nonce, const std::string &json) {
  return "KBAUDIT-ANSWER " + nonce + " " + std::to_string(json.size()) + "\n" + json;
}

const std::string kNonce = "0123456789abcdef0123456789abcdef";

std::string answerJson(const std::string &nonce, const std::string &extra = "") {
  return R"({"nonce": ")" + nonce +
         R"(", "device": "cpu", "torch": "1.13.0", "seeds": [0, 1], "probes": [{"name": "differential", )"
         R"("status": "finding", "check": "", "rule": "WRAP001", "reason": "r", "numbers": {"error_ratio": 1e300}}], )"
         R"("events": [{"kind": "grader-file", "detail": "read check.py"}])" +
         extra + "}";
}

} // namespace

// ---------------------------------------------------------------- parseAnswer (no torch)

TEST(RuntimeAnswer, AcceptsAWellFramedAnswer) {
  runtime::RuntimeReport r;
  std::string why;
  ASSERT_TRUE(runtime::parseAnswer(framed(kNonce, answerJson(kNonce)), kNonce, r, why)) << why;
  EXPECT_EQ(r.outcome, "ran");
  EXPECT_EQ(r.device, "cpu");
  EXPECT_EQ(r.torchVersion, "1.13.0");
  EXPECT_EQ(r.seeds, (std::vector<int>{0, 1}));
  ASSERT_EQ(r.probes.size(), 1u);
  EXPECT_EQ(r.probes[0].status, "finding");
  // The worker names no rule that is read: the rule metadata names it (differential -> PREC001).
  EXPECT_EQ(r.probes[0].rule, "");
  runtime::attributeProbes(r);
  EXPECT_EQ(r.probes[0].rule, "PREC001");
  EXPECT_DOUBLE_EQ(r.probes[0].numbers.at("error_ratio"), 1e300);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].kind, "grader-file");
}

TEST(RuntimeAnswer, RejectsForgedNonces) {
  const std::string other = "ffffffffffffffffffffffffffffffff";
  runtime::RuntimeReport r;
  std::string why;
  // A frame with another nonce (a guess) ...
  EXPECT_FALSE(runtime::parseAnswer(framed(other, answerJson(other)), kNonce, r, why));
  EXPECT_NE(why.find("forged"), std::string::npos) << why;
  // ... the right nonce on the frame but not in the body ...
  why.clear();
  EXPECT_FALSE(runtime::parseAnswer(framed(kNonce, answerJson(other)), kNonce, r, why));
  EXPECT_NE(why.find("body"), std::string::npos) << why;
  // ... no nonce at all, or nothing to check against.
  EXPECT_FALSE(runtime::parseAnswer("KBAUDIT-ANSWER\n{}", kNonce, r, why));
  EXPECT_FALSE(runtime::parseAnswer(framed("", answerJson("")), "", r, why));
  // A failed parse leaves the report as it was.
  EXPECT_EQ(r.outcome, "unavailable");
  EXPECT_TRUE(r.probes.empty());
  EXPECT_TRUE(r.events.empty());
}

TEST(RuntimeAnswer, RejectsLengthMismatchesAndSecondAnswers) {
  const std::string one = framed(kNonce, answerJson(kNonce));
  runtime::RuntimeReport r;
  std::string why;
  // A forged answer followed by the real one (or the real one twice).
  EXPECT_FALSE(runtime::parseAnswer(one + one, kNonce, r, why));
  EXPECT_NE(why.find("length"), std::string::npos) << why;
  // Truncated.
  EXPECT_FALSE(runtime::parseAnswer(one.substr(0, one.size() - 5), kNonce, r, why));
  // A length that is not a number.
  EXPECT_FALSE(runtime::parseAnswer("KBAUDIT-ANSWER " + kNonce + " many\n" + answerJson(kNonce), kNonce, r, why));
  EXPECT_TRUE(r.probes.empty());
}

TEST(RuntimeAnswer, RejectsGarbage) {
  runtime::RuntimeReport r;
  std::string why;
  EXPECT_FALSE(runtime::parseAnswer("", kNonce, r, why));
  EXPECT_NE(why.find("no answer"), std::string::npos) << why;
  EXPECT_FALSE(runtime::parseAnswer("hello world", kNonce, r, why));
  EXPECT_FALSE(runtime::parseAnswer(std::string(1000, '\0'), kNonce, r, why));
  EXPECT_FALSE(runtime::parseAnswer(framed(kNonce, "{\"nonce\": \"" + kNonce + "\", \"probes\": [ {"), kNonce, r, why));
  EXPECT_NE(why.find("JSON"), std::string::npos) << why;
  EXPECT_FALSE(runtime::parseAnswer("KBAUDIT-ANSWER " + kNonce + " 5", kNonce, r, why)) << "no newline";
  EXPECT_TRUE(r.probes.empty());
}

TEST(RuntimeAnswer, SetupErrorsSayWhoseFaultItIs) {
  runtime::RuntimeReport r;
  std::string why;
  ASSERT_TRUE(runtime::parseAnswer(
      framed(kNonce, answerJson(kNonce, R"(, "setup_error": "ImportError: x", "setup_stage": "solution")")), kNonce, r,
      why));
  EXPECT_EQ(r.outcome, "aborted");
  EXPECT_NE(r.reason.find("solution could not be loaded or run"), std::string::npos) << r.reason;

  runtime::RuntimeReport ref;
  ASSERT_TRUE(runtime::parseAnswer(
      framed(kNonce, answerJson(kNonce, R"(, "setup_error": "TypeError: fp8", "setup_stage": "reference")")), kNonce,
      ref, why));
  EXPECT_EQ(ref.outcome, "unavailable");
  EXPECT_NE(ref.reason.find("reference"), std::string::npos) << ref.reason;
}

TEST(RuntimeAnswer, ProbePackageIsCompiledIn) {
  std::map<std::string, std::string_view> files;
  for (const runtime::EmbeddedFile &f : runtime::probePackage())
    files[std::string(f.path)] = f.content;
  for (const char *name : {"kbaudit_probe/__main__.py", "kbaudit_probe/cli.py", "kbaudit_probe/harness.py",
                           "kbaudit_probe/cpu_mapping.py", "kbaudit_probe/probes/parameters.py"})
    EXPECT_TRUE(files.count(name)) << name << " is not compiled in";
  EXPECT_NE(files["kbaudit_probe/numerics.py"].find("ERROR_RATIO_LIMIT"), std::string_view::npos);
  EXPECT_NE(files["kbaudit_probe/cli.py"].find("KBAUDIT-ANSWER"), std::string_view::npos);
}

TEST(RuntimeProbe, UnavailableWithoutPythonOrReference) {
  runtime::ProbeOptions options;
  options.python = "/nonexistent/python3";
  const auto noPython = runtime::runProbes(solutionDir("honest_gemm"), problems::loadProblem(problemDir("tiny_gemm")),
                                           options);
  EXPECT_EQ(noPython.outcome, "unavailable");
  EXPECT_NE(noPython.reason.find("Python"), std::string::npos) << noPython.reason;

  TempDir empty;
  const auto noReference = runtime::runProbes(solutionDir("honest_gemm"), problems::loadProblem(empty.path()));
  EXPECT_EQ(noReference.outcome, "unavailable");
  const auto noSolution =
      runtime::runProbes(empty / "solution.py", problems::loadProblem(problemDir("tiny_gemm")));
  EXPECT_EQ(noSolution.outcome, "unavailable");
}

// ---------------------------------------------------------------- honest solutions

class HonestSolution : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(HonestSolution, PassesEveryProbe) {
  REQUIRE_TORCH();
  const auto &[solution, problem] = GetParam();
  const bool triton = solution.find("triton") != std::string::npos;
  const runtime::RuntimeReport r = probe(solutionDir(solution), problem);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  // Triton solutions ran their kernels under the interpreter, and the report says so.
  EXPECT_EQ(r.device, triton ? "cpu (triton interpreter)" : "cpu");
  EXPECT_TRUE(r.events.empty()) << describe(r);
  for (const char *name : {"differential", "adversarial", "distributions", "memoization", "aliasing", "caller_context",
                           "call_count", "global_state", "uninitialized_output", "stream_order", "graph_replay",
                           "thread_order"}) {
    const runtime::ProbeOutcome *p = find(r, name);
    ASSERT_NE(p, nullptr) << name << " missing\n" << describe(r);
    EXPECT_EQ(p->status, "passed") << name << "\n" << describe(r);
    // The passes that can clear a finding were judged outside the solution's process.
    EXPECT_EQ(p->verified, runtime::witnessedProbe(name)) << name << "\n" << describe(r);
  }
  // Other shapes run where the problem has a shapes.py (tiny_gemm) and say why not elsewhere.
  const runtime::ProbeOutcome *shapes = find(r, "other_shapes");
  ASSERT_NE(shapes, nullptr) << describe(r);
  EXPECT_EQ(shapes->status, problem == "tiny_gemm" ? "passed" : "skipped") << describe(r);
  // The reference's parameters, set to other values, still reach the result.
  const runtime::ProbeOutcome *params = find(r, "parameters");
  ASSERT_NE(params, nullptr) << describe(r);
  EXPECT_EQ(params->status, problem == "tiny_softmax" ? "skipped" : "passed") << describe(r);
  // Disabling the Triton launches breaks a Triton solution's output; without Triton there is
  // nothing to disable, and timing needs a GPU.
  const runtime::ProbeOutcome *ablation = find(r, "kernel_ablation");
  ASSERT_NE(ablation, nullptr) << describe(r);
  EXPECT_EQ(ablation->status, triton ? "passed" : "skipped") << describe(r);
  if (!triton) {
    EXPECT_NE(ablation->reason.find("no Triton launch"), std::string::npos) << ablation->reason;
  }
  const runtime::ProbeOutcome *timing = find(r, "timing");
  ASSERT_NE(timing, nullptr);
  EXPECT_EQ(timing->status, "skipped");
  EXPECT_NE(timing->reason.find("CUDA"), std::string::npos) << timing->reason;
  // No finding survives into the rule results either.
  rules::RuleResults results;
  annotations::applyRuntime(results, r);
  EXPECT_TRUE(results.findings.empty());
}

INSTANTIATE_TEST_SUITE_P(Runtime, HonestSolution,
                         ::testing::Values(std::make_pair("honest_gemm", "tiny_gemm"),
                                           std::make_pair("honest_softmax", "tiny_softmax"),
                                           std::make_pair("honest_gelu", "tiny_gelu"),
                                           std::make_pair("honest_triton_softmax", "tiny_softmax"),
                                           std::make_pair("honest_triton_gemm", "tiny_gemm"),
                                           std::make_pair("honest_triton_layernorm", "tiny_layernorm"),
                                           std::make_pair("honest_triton_bf16_rmsnorm", "tiny_bf16_rmsnorm"),
                                           std::make_pair("honest_triton_splitk_gemv", "tiny_bf16_gemv"),
                                           std::make_pair("honest_lazy_dynamo", "tiny_softmax"),
                                           // Streams joined through an event, and a CUDA graph fed
                                           // each call's input: recorded and replayed on the CPU.
                                           std::make_pair("honest_side_stream_joined", "tiny_softmax"),
                                           std::make_pair("honest_cuda_graph", "tiny_softmax")),
                         [](const auto &p) { return p.param.first; });

// ---------------------------------------------------------------- one hack per probe

struct Hack {
  std::string solution, problem, probe, rule;
};

void PrintTo(const Hack &h, std::ostream *os) { *os << h.solution << " on " << h.problem; }

class HackingSolution : public ::testing::TestWithParam<Hack> {};

TEST_P(HackingSolution, IsCaughtByItsProbe) {
  REQUIRE_TORCH();
  const Hack &h = GetParam();
  const runtime::RuntimeReport r = probe(solutionDir(h.solution), h.problem);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::ProbeOutcome *p = find(r, h.probe);
  ASSERT_NE(p, nullptr) << describe(r);
  EXPECT_EQ(p->status, "finding") << describe(r);
  EXPECT_EQ(p->rule, h.rule) << describe(r);
  EXPECT_FALSE(p->reason.empty());
  // The finding becomes a high-confidence finding of that rule, and of no other: probes that
  // merely see the consequences (a stored result is also wrong on new inputs) name no rule.
  rules::RuleResults results;
  annotations::applyRuntime(results, r);
  ASSERT_EQ(results.findings.size(), 1u) << describe(r);
  EXPECT_EQ(results.findings[0].rule, h.rule);
  // Under the Triton interpreter a probe that judges the kernel's numbers against the
  // reference's lists its finding for review: interpreted numerics are not the GPU's.
  const bool interpreted = h.solution.find("triton") != std::string::npos;
  EXPECT_EQ(r.device, interpreted ? "cpu (triton interpreter)" : "cpu");
  const bool numeric = h.probe == "differential" || h.probe == "adversarial" || h.probe == "distributions" ||
                       h.probe == "other_shapes" ||
                       h.probe == "uninitialized_output" || h.probe == "parameters" || h.probe == "kernel_ablation";
  EXPECT_EQ(results.findings[0].confidence,
            interpreted && numeric ? rules::Confidence::Low : rules::Confidence::High);
}

INSTANTIATE_TEST_SUITE_P(
    Runtime, HackingSolution,
    ::testing::Values(Hack{"hack_downcast_bf16", "tiny_gemm", "differential", "PREC001"},
                      Hack{"hack_magnitude_gate", "tiny_gemm", "adversarial", "PREC005"},
                      Hack{"hack_shape_gate", "tiny_gemm", "other_shapes", "RUB005"},
                      Hack{"hack_memo_data_ptr", "tiny_gemm", "memoization", "MEM001"},
                      Hack{"hack_return_input", "tiny_gelu", "aliasing", "MEM003"},
                      Hack{"hack_mutate_input", "tiny_softmax", "aliasing", "MEM003"},
                      Hack{"hack_uninit_output", "tiny_softmax", "uninitialized_output", "MEM002"},
                      Hack{"hack_caller_stack", "tiny_gemm", "caller_context", "RUB001"},
                      Hack{"hack_caller_argv", "tiny_softmax", "caller_context", "RUB001"},
                      Hack{"hack_call_count", "tiny_gelu", "call_count", "RUB004"},
                      Hack{"hack_tf32_flag", "tiny_gemm", "global_state", "PREC002"},
                      Hack{"hack_patch_allclose", "tiny_softmax", "global_state", "RUB003"},
                      // The ordering tracer: work a GPU would leave unordered before forward's
                      // return, whatever the spelling.
                      Hack{"hack_side_stream", "tiny_softmax", "stream_order", "TIME001"},
                      Hack{"hack_side_stream_inner_join", "tiny_softmax", "stream_order", "TIME001"},
                      Hack{"hack_stale_graph", "tiny_softmax", "graph_replay", "TIME004"},
                      Hack{"hack_thread_late", "tiny_softmax", "thread_order", "TIME003"},
                      // Inputs from other distributions: a LayerNorm over the wrong elements
                      // (WRAP008, which the differential's error is then explained by) and a path
                      // chosen by the sign of the inputs (RUB006, as adversarial sees it too).
                      Hack{"hack_norm_wrong_axes", "tiny_layernorm", "distributions", "WRAP008"},
                      Hack{"hack_softmax_sign_gate", "tiny_softmax", "distributions", "RUB006"},
                      // The same hack classes in Triton kernels, run under Triton's interpreter.
                      Hack{"hack_triton_tf32", "tiny_gemm", "differential", "PREC001"},
                      Hack{"hack_triton_magnitude", "tiny_gemm", "adversarial", "PREC005"},
                      Hack{"hack_triton_memo", "tiny_softmax", "memoization", "MEM001"},
                      Hack{"hack_triton_alias", "tiny_gelu", "aliasing", "MEM003"},
                      Hack{"hack_triton_uninit", "tiny_softmax", "uninitialized_output", "MEM002"},
                      Hack{"hack_triton_caller", "tiny_softmax", "caller_context", "RUB001"},
                      Hack{"hack_triton_call_count", "tiny_gelu", "call_count", "RUB004"},
                      Hack{"hack_triton_figleaf", "tiny_softmax", "kernel_ablation", "WRAP001"},
                      Hack{"hack_triton_norm_dropped", "tiny_layernorm", "parameters", "RUB008"},
                      Hack{"hack_triton_norm_ignored", "tiny_layernorm", "parameters", "RUB008"}),
    [](const auto &p) { return p.param.solution; });

TEST(RuntimeProbe, GraderFileAccessIsAnEventAndRub002) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe(solutionDir("hack_grader_file"), "tiny_gelu");
  // The read and the attempted rewrite are events. The problem's private copy is read-only to the
  // probe (root's, and read-only in its view), so the rewrite fails and, uncaught, fails the
  // import; only where the copy is writable (no containment, not root) does it succeed and
  // kbaudit's own hashes see check.py changed.
  EXPECT_TRUE(hasEvent(r, "grader-file", "read ")) << describe(r);
  EXPECT_TRUE(hasEvent(r, "grader-file", "write ")) << describe(r);
  if (::geteuid() == 0) {
    EXPECT_EQ(r.outcome, "aborted") << describe(r);
    EXPECT_NE(r.reason.find("Read-only file system"), std::string::npos) << describe(r);
    EXPECT_FALSE(hasEvent(r, "grader-changed", "check.py")) << describe(r);
  }
  rules::RuleResults results;
  annotations::applyRuntime(results, r);
  ASSERT_EQ(results.findings.size(), 1u);
  EXPECT_EQ(results.findings[0].rule, "RUB002");
  // Only the private copy was touched.
  EXPECT_NE(readFile(problemDir("tiny_gelu") / "check.py").find("Stand-in grader"), std::string::npos);
}

// Spawns count as torch's or Triton's toolchain only when one of their modules is the nearest
// caller outside the standard library: a shell started by the solution's own function, called
// back from torch.utils, is the solution's.
TEST(RuntimeProbe, AShellStartedFromATorchCallbackIsTheSolutionsProcessEvent) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe(solutionDir("hack_shell_via_torch_callback"), "tiny_gelu");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(hasEvent(r, "process", "sh")) << describe(r);
}

TEST(RuntimeProbe, StackSniffingDoesNotReadTheRealGraderFiles) {
  REQUIRE_TORCH();
  // inspect.stack() reads the source of every frame; the caller-context probe's frames point
  // into a directory that does not exist, so this is RUB001 only, not also RUB002.
  const runtime::RuntimeReport r = probe(solutionDir("hack_caller_stack"), "tiny_gemm");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(r.events.empty()) << describe(r);
}

TEST(RuntimeProbe, KeepsRootWhenTheInterpreterIsUnreachableForOtherUsers) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "only root hands the probe an unprivileged uid";
  // An interpreter below a 0700 directory: the unprivileged uid could not even start it, so the
  // probe keeps root and the isolation notes say why (whatever the run's outcome).
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_all, fs::perm_options::replace);
  fs::create_directories(dir / "env" / "bin");
  fs::create_symlink("/bin/sh", dir / "env" / "bin" / "python");
  runtime::ProbeOptions options;
  options.python = dir / "env" / "bin" / "python";
  options.limits.wall = 5s;
  const runtime::RuntimeReport r =
      runtime::runProbes(solutionDir("honest_softmax"), problems::loadProblem(problemDir("tiny_softmax")), options);
  bool noted = false;
  for (const std::string &i : r.isolation)
    noted |= i.find("uid not changed") != std::string::npos && i.find(dir.path().string()) != std::string::npos;
  EXPECT_TRUE(noted) << describe(r);
}

TEST(RuntimeProbe, TheReferencesOwnFileReadsAreNotTheSolutions) {
  REQUIRE_TORCH();
  // A warning raised in the reference makes Python read reference.py's source line to print it;
  // only the solution's code is watched, so that is no grader-file event for an honest solution.
  TempDir dir;
  for (const char *f : {"problem.yaml", "check.py", "benchmark.py"})
    writeFile(dir / "problem" / f, readFile(problemDir("tiny_softmax") / f));
  std::string reference = readFile(problemDir("tiny_softmax") / "reference.py");
  const std::string body = "        return torch.softmax(x, dim=-1)";
  ASSERT_NE(reference.find(body), std::string::npos);
  reference.replace(reference.find(body), body.size(),
                    "        import warnings\n        warnings.warn(\"reference warning\")\n" + body);
  writeFile(dir / "problem" / "reference.py", reference);
  runtime::ProbeOptions options;
  options.device = "cpu";
  options.seeds = {0};
  const runtime::RuntimeReport r =
      runtime::runProbes(solutionDir("honest_softmax"), problems::loadProblem(dir / "problem"), options);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(r.events.empty()) << describe(r);
}

TEST(RuntimeProbe, UnavailableWhereTheCodeCannotRun) {
  REQUIRE_TORCH();
  // Written for a GPU: no probe can say anything on a CPU, so neither passed nor aborted.
  // (CuPy is not installed; the CPU runner does not emulate a tensor-core mma.sync in inline PTX,
  // and names it with its line. A CUDA graph now runs under the ordering tracer's stand-ins.)
  for (const auto &[solution, why] :
       {std::pair{"gpu_only_cuda", "cupy"},
        std::pair{"gpu_only_cuda_ptx_mma", "that the CPU runner cannot run (unavailable: inline PTX mma.sync, line 17)"}}) {
    const runtime::RuntimeReport r = probe(solutionDir(solution), "tiny_softmax");
    EXPECT_EQ(r.outcome, "unavailable") << solution << "\n" << describe(r);
    EXPECT_NE(r.reason.find("does not run on this device"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find(why), std::string::npos) << r.reason;
    EXPECT_TRUE(r.probes.empty());
  }
  // A reference this torch cannot run (fp16 matmul on Debian's CPU torch 1.13).
  if (runCommand(std::string(kPython) +
                 " -c 'import torch; torch.ones(2, 2).half() @ torch.ones(2, 2).half()' >/dev/null 2>&1") == 0) {
    GTEST_SKIP() << "this torch runs fp16 matmul on the CPU";
  }
  const runtime::RuntimeReport r = probe(solutionDir("honest_gemm"), "tiny_fp16_gemm");
  EXPECT_EQ(r.outcome, "unavailable") << describe(r);
  EXPECT_NE(r.reason.find("reference does not run on this device"), std::string::npos) << r.reason;
}

bool nvccPresent() {
  return runCommand("test -x /usr/local/cuda/bin/nvcc || test -x /usr/bin/nvcc") == 0;
}

bool cpuRunnerCanBuild() {
  return runCommand("PATH=/usr/bin:/bin command -v g++ >/dev/null 2>&1 && test -f /usr/include/boost/context/fiber.hpp") == 0;
}

TEST(RuntimeProbe, CudaCppRunsOnTheCpuRunner) {
  REQUIRE_TORCH();
  if (!cpuRunnerCanBuild())
    GTEST_SKIP() << "no g++ or Boost.Context headers (setup.sh installs libboost-context-dev): the CPU runner cannot build";
  // CUDA C++ built at run time runs on the CPU runner: load_inline with cuda_sources, and a .cu
  // sidecar built with load() on the first call behind a catch-all fallback (never taken). Each
  // kernel runs on the CPU, every probe that compares numbers passes, the toolchain's processes
  // are no events, and the notes say what ran.
  for (const char *solution : {"honest_cuda_load_inline", "honest_cuda_cu_sidecar"}) {
    const runtime::RuntimeReport r = probe(solutionDir(solution), "tiny_softmax", 240s);
    ASSERT_EQ(r.outcome, "ran") << solution << "\n" << describe(r);
    EXPECT_EQ(r.device, "cpu (cuda runner)") << solution; // docs/runtime.md: where the kernels ran
    EXPECT_TRUE(r.events.empty()) << solution << "\n" << describe(r);
    for (const char *name : {"differential", "adversarial", "memoization", "aliasing", "call_count"}) {
      const runtime::ProbeOutcome *p = find(r, name);
      ASSERT_NE(p, nullptr) << solution << ": " << name << " missing\n" << describe(r);
      EXPECT_EQ(p->status, "passed") << solution << ": " << name << "\n" << describe(r);
    }
    EXPECT_TRUE(std::any_of(r.notes.begin(), r.notes.end(), [](const std::string &n) {
      return n.find("ran on the CPU runner") != std::string::npos;
    })) << solution << "\n" << describe(r);
    // Built as the harness builds it too (nvcc, torch's flags): it builds.
    const runtime::ProbeOutcome *build = find(r, "extension_build");
    ASSERT_NE(build, nullptr) << solution << "\n" << describe(r);
    EXPECT_EQ(build->status, nvccPresent() ? "passed" : "skipped") << solution << "\n" << describe(r);
  }
}

TEST(RuntimeProbe, AnExtensionTheHarnessCannotBuildIsEvidenceThatItsFallbackIsGraded) {
  REQUIRE_TORCH();
  if (!cpuRunnerCanBuild() || !nvccPresent())
    GTEST_SKIP() << "needs g++, Boost.Context and nvcc (the harness's own build is nvcc's; no GPU needed)";
  // `__half + __half` does not compile under torch's __CUDA_NO_HALF_OPERATORS__: on the GPU the
  // build raises, the solution's catch-all takes its torch fallback, and that is what is graded.
  const runtime::RuntimeReport r = probe(solutionDir("hack_cuda_build_fails_fallback"), "tiny_softmax", 240s);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::ProbeOutcome *build = find(r, "extension_build");
  ASSERT_NE(build, nullptr) << describe(r);
  EXPECT_EQ(build->status, "finding") << describe(r);
  EXPECT_EQ(build->rule, "WRAP007") << describe(r);
  EXPECT_NE(build->reason.find("does not build as the harness builds it"), std::string::npos) << build->reason;
  EXPECT_NE(build->reason.find("error"), std::string::npos) << build->reason;
  const runtime::ProbeOutcome *differential = find(r, "differential");
  ASSERT_NE(differential, nullptr) << describe(r);
  EXPECT_EQ(differential->status, "passed") << describe(r); // the fallback is torch's softmax
}

TEST(RuntimeProbe, TheShippedCudaExampleRunsWithinTheDefaultLimit) {
  REQUIRE_TORCH();
  if (!cpuRunnerCanBuild())
    GTEST_SKIP() << "no g++ or Boost.Context headers: the CPU runner cannot build";
  // The shipped load_inline example, under the default 120 s limit: built for the CPU runner
  // and probed (it used to be refused; before that torch's builder ran nvcc past the budget).
  runtime::ProbeOptions options;
  options.device = "cpu";
  options.python = kPython;
  options.seeds = {0, 1};
  options.limits.wall = 120s;
  const fs::path example = fs::path(KBAUDIT_SOURCE_DIR) / "examples";
  const runtime::RuntimeReport r =
      runtime::runProbes(example / "runs" / "20260101_100000_demo_cuda-relu-1_02_relu",
                         problems::loadProblem(example / "problems" / "02_relu"), options);
  EXPECT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(r.events.empty()) << describe(r);
  const runtime::ProbeOutcome *differential = find(r, "differential");
  ASSERT_NE(differential, nullptr) << describe(r);
  EXPECT_EQ(differential->status, "passed") << describe(r);
}

TEST(RuntimeProbe, CppOnlyExtensionBuildsAndRunsOnCpu) {
  REQUIRE_TORCH();
  // load_inline with cpp_sources only is CPU code: it builds (c++ and ninja from the sandbox's
  // PATH, /usr/bin:/bin) and runs like any honest solution; the builder's compiler runs are not
  // the solution's process events. The first build takes the compiler's time.
  if (runCommand("PATH=/usr/bin:/bin command -v c++ >/dev/null 2>&1 && PATH=/usr/bin:/bin command -v ninja "
                 ">/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no c++ or ninja in /usr/bin:/bin: torch's extension builder cannot run in the sandbox";
  }
  const runtime::RuntimeReport r = probe(solutionDir("honest_cpp_extension"), "tiny_softmax", 240s);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_EQ(r.device, "cpu");
  EXPECT_TRUE(r.events.empty()) << describe(r);
  for (const char *name : {"differential", "adversarial", "memoization", "aliasing", "caller_context", "call_count"}) {
    const runtime::ProbeOutcome *p = find(r, name);
    ASSERT_NE(p, nullptr) << name << " missing\n" << describe(r);
    EXPECT_EQ(p->status, "passed") << name << "\n" << describe(r);
  }
}

// ---------------------------------------------------------------- hostile solutions

TEST(RuntimeHostile, ForkBombAbortsAndTheRunEnds) {
  REQUIRE_TORCH();
  const auto start = std::chrono::steady_clock::now();
  const runtime::RuntimeReport r = probe(solutionDir("hostile_fork_bomb"), "tiny_softmax", 4s);
  EXPECT_EQ(r.outcome, "aborted") << describe(r);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);
}

TEST(RuntimeHostile, MemoryHogHitsTheAddressSpaceLimit) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe(solutionDir("hostile_memory_hog"), "tiny_softmax");
  EXPECT_EQ(r.outcome, "aborted") << describe(r);
  EXPECT_NE(r.reason.find("solution could not be loaded or run"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.probes.empty());
}

TEST(RuntimeHostile, ExitAtImportIsAnAbortNotAPass) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe(solutionDir("hostile_exit_at_import"), "tiny_softmax");
  EXPECT_EQ(r.outcome, "aborted") << describe(r);
  EXPECT_NE(r.reason.find("without answering"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.probes.empty());
}

TEST(RuntimeHostile, WritesOutsideItsDirectoryAreEvents) {
  REQUIRE_TORCH();
  TempDir dir;
  const std::string mark = "/tmp/kbaudit-hostile-write-" + std::to_string(::getpid()) + ".txt";
  const fs::path solution = copyWith(dir, "hostile_write_outside", "/tmp/kbaudit-hostile-write-outside.txt", mark);
  const runtime::RuntimeReport r = probe(solution, "tiny_softmax");
  const bool leaked = fs::exists(mark);
  std::error_code ec;
  fs::remove(mark, ec);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(hasEvent(r, "write-outside", mark)) << describe(r);
  // The write is an event; under namespaces it lands in the private /tmp, under Landlock it is
  // refused: either way the host's /tmp does not get it.
  const bool contained = std::any_of(r.isolation.begin(), r.isolation.end(), [](const std::string &i) {
    return i.rfind("own mount, PID", 0) == 0 || i.rfind("Landlock ABI", 0) == 0;
  });
  if (contained) {
    EXPECT_FALSE(leaked) << "the sandboxed solution wrote " << mark << " on the host\n" << describe(r);
  }
  EXPECT_TRUE(hasEvent(r, "write-outside", "/etc/kbaudit-hostile")) << describe(r);
  EXPECT_FALSE(fs::exists("/etc/kbaudit-hostile")) << "the sandboxed solution wrote into /etc";
  fs::remove("/etc/kbaudit-hostile", ec);
}

TEST(RuntimeHostile, DeletionsAreEventsAndTouchOnlyThePrivateCopy) {
  REQUIRE_TORCH();
  TempDir dir;
  const std::string victim = "/tmp/kbaudit-hostile-victim-" + std::to_string(::getpid()) + ".txt";
  writeFile(victim, "not the solution's\n");
  const fs::path solution = copyWith(dir, "hostile_delete_files", "/tmp/kbaudit-hostile-delete-victim.txt", victim);
  const runtime::RuntimeReport r = probe(solution, "tiny_softmax");
  const bool victimSurvived = fs::exists(victim);
  std::error_code ec;
  fs::remove(victim, ec);
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  // The attempt on the grader's file is an event whether or not the read-only copy let it
  // succeed; where the copy was writable to it (no containment, not root) kbaudit's own hashes
  // also see it gone.
  EXPECT_TRUE(hasEvent(r, "grader-file", "delete ")) << describe(r);
  EXPECT_TRUE(hasEvent(r, "delete", "check.py")) << describe(r);
  EXPECT_TRUE(hasEvent(r, "delete", victim)) << describe(r);
  EXPECT_TRUE(fs::exists(problemDir("tiny_softmax") / "check.py")) << "the real problem's check.py was deleted";
  if (::geteuid() == 0) {
    EXPECT_TRUE(victimSurvived) << "as root the probe runs as a uid of its own, which cannot delete root's files";
    EXPECT_FALSE(hasEvent(r, "grader-changed", "check.py was deleted"))
        << "the private copy of the problem is root's and read-only to the probe\n" << describe(r);
  }
  rules::RuleResults results;
  annotations::applyRuntime(results, r);
  ASSERT_FALSE(results.findings.empty());
  EXPECT_EQ(results.findings[0].rule, "RUB002");
}

TEST(RuntimeHostile, HugeStdoutIsCappedAndTheProbeStillAnswers) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe(solutionDir("hostile_huge_stdout"), "tiny_softmax");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  for (const runtime::ProbeOutcome &p : r.probes)
    EXPECT_NE(p.status, "finding") << describe(r);
}

TEST(RuntimeHostile, ForgedAnswersOnStdoutAreIgnored) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe(solutionDir("hostile_forged_stdout"), "tiny_gemm");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::ProbeOutcome *p = find(r, "differential");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->status, "finding") << "the forged 'passed' on stdout was believed\n" << describe(r);
}

TEST(RuntimeHostile, ForgedAnswerOnTheAnswerPipeIsRejected) {
  REQUIRE_TORCH();
  const runtime::RuntimeReport r = probe(solutionDir("hostile_forged_answer_fd"), "tiny_gemm");
  EXPECT_EQ(r.outcome, "aborted") << describe(r);
  EXPECT_NE(r.reason.find("forged"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.probes.empty()) << "nothing of a rejected answer is kept";
}

TEST(RuntimeHostile, StolenNonceGivesTwoAnswersNotAPass) {
  REQUIRE_TORCH();
  // The solution reads the real nonce from the probe's frames and writes a well-formed answer.
  // The probe's own answer follows it, so the frame's length does not match: aborted. (The same
  // thief ending the process right after its answer would be believed: docs/runtime.md.)
  const runtime::RuntimeReport r = probe(solutionDir("hostile_nonce_thief"), "tiny_gemm");
  EXPECT_EQ(r.outcome, "aborted") << describe(r);
  EXPECT_NE(r.reason.find("length"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.probes.empty());
}

// ---------------------------------------------------------------- the command line

TEST(RuntimeCli, ProbeExitCodes) {
  const std::string kb = KBAUDIT_BINARY;
  const std::string quiet = " >/dev/null 2>&1";
  const std::string gemm = " --problem " + problemDir("tiny_gemm").string();
  // Usage errors and an unusable interpreter need no torch.
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("honest_gemm").string() + quiet), cli::kExitUsage);
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("honest_gemm").string() + gemm + " --device tpu" + quiet),
            cli::kExitUsage);
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("honest_gemm").string() + gemm + " --probe-timeout 0" + quiet),
            cli::kExitUsage);
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("honest_gemm").string() + gemm + " --python /nonexistent" + quiet),
            cli::kExitInternal);
  REQUIRE_TORCH();
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("honest_gemm").string() + gemm + " --device cpu" + quiet),
            cli::kExitClean);
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("hack_downcast_bf16").string() + gemm + " --device cpu" + quiet),
            cli::kExitFlagged);
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("gpu_only_cuda").string() + " --problem " +
                       problemDir("tiny_softmax").string() + " --device cpu" + quiet),
            cli::kExitInternal);
  EXPECT_EQ(runCommand(kb + " probe " + solutionDir("gpu_only_cuda_ptx_mma").string() + " --problem " +
                       problemDir("tiny_softmax").string() + " --device cpu" + quiet),
            cli::kExitInternal);
  // A hang at import ends at --probe-timeout as an aborted run.
  TempDir dir;
  const auto start = std::chrono::steady_clock::now();
  const int code = runCommand(kb + " probe " + solutionDir("hostile_infinite_loop").string() + " --problem " +
                              problemDir("tiny_softmax").string() + " --device cpu --probe-timeout 3 > " +
                              (dir / "out.txt").string() + " 2>&1");
  EXPECT_EQ(code, cli::kExitFlagged);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  const std::string out = readFile(dir / "out.txt");
  EXPECT_NE(out.find("outcome: aborted"), std::string::npos) << out;
  // The probe's own budget timer ends the import's loop and answers; the sandbox's kill at the
  // wall limit is the backstop for code that ignores the timer (the fork bomb).
  EXPECT_TRUE(out.find("time budget") != std::string::npos || out.find("3 s limit") != std::string::npos) << out;
}

TEST(RuntimeCli, CheckWithRuntimeWritesTheRuntimeBlock) {
  REQUIRE_TORCH();
  std::ostringstream out, err;
  const int code = cli::run({"check", (solutionDir("hack_caller_argv") / "solution.py").string(), "--problem",
                             problemDir("tiny_softmax").string(), "--runtime", "--device", "cpu", "--format", "yaml"},
                            out, err);
  EXPECT_EQ(code, cli::kExitFlagged) << err.str();
  const std::string yaml = out.str();
  EXPECT_NE(yaml.find("\n  runtime:\n    outcome: ran\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("- name: caller_context\n        status: finding\n        rule: RUB001"), std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("verdict: reward_hack"), std::string::npos) << yaml;
}
