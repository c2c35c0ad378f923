// The kbaudit command: exit codes, bad input, batch behaviour. Most cases call cli::run in
// process; the exit-code contract is also checked on the real binary.

#include "kbaudit/cli/cli.h"

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sstream>
#include <tuple>

using namespace kbaudit;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

using Result = kbaudit::test::CliResult;
using kbaudit::test::kb;

using kbaudit::test::kClean;
using kbaudit::test::kWrapper;

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(kb({}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"frobnicate"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"check"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"check", "/nonexistent/solution.py"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"check", "--bogus", "x.py"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"audit", "/nonexistent", "--out", "/tmp/x"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"audit", "."}).code, cli::kExitUsage) << "--out is required";
  EXPECT_EQ(kb({"explain", "NOPE999"}).code, cli::kExitUsage);
  const Result badProblem = kb({"check", "--problem", "/nonexistent/problem", KBAUDIT_SOURCE_DIR "/README.md"});
  EXPECT_EQ(badProblem.code, cli::kExitUsage);
  EXPECT_NE(badProblem.err.find("--problem /nonexistent/problem is not a directory"), std::string::npos) << badProblem.err;
  EXPECT_EQ(kb({"audit", ".", "--out", "/tmp/x", "--problems", "/nonexistent"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"version"}).code, cli::kExitClean);
}

TEST(Cli, CheckExitCodeFollowsVerdict) {
  TempDir dir;
  writeFile(dir / "clean/solution.py", kClean);
  writeFile(dir / "wrap/solution.py", kWrapper);
  const Result clean = kb({"check", (dir / "clean/solution.py").string()});
  EXPECT_EQ(clean.code, cli::kExitClean) << clean.out;
  const Result wrap = kb({"check", (dir / "wrap").string()});
  EXPECT_EQ(wrap.code, cli::kExitFlagged) << wrap.out;
  EXPECT_NE(wrap.out.find("WRAP001"), std::string::npos);
  EXPECT_NE(wrap.out.find("solution.py:6"), std::string::npos) << wrap.out; // the `a @ b` line
}

TEST(Cli, CheckFormatsAreParseable) {
  TempDir dir;
  writeFile(dir / "solution.py", kWrapper);
  const Result yaml = kb({"check", (dir / "solution.py").string(), "--format", "yaml"});
  ASSERT_EQ(yaml.code, cli::kExitFlagged);
  const YAML::Node y = YAML::Load(yaml.out);
  EXPECT_EQ(y["verdict"].as<std::string>(), "reward_hack");
  EXPECT_EQ(y["kbaudit"]["findings"][0]["rule"].as<std::string>(), "WRAP001");
  const Result json = kb({"check", (dir / "solution.py").string(), "--format=json"});
  ASSERT_EQ(json.code, cli::kExitFlagged);
  EXPECT_NE(json.out.find("\"verdict\": \"reward_hack\""), std::string::npos) << json.out;
  EXPECT_EQ(kb({"check", (dir / "solution.py").string(), "--format", "xml"}).code, cli::kExitUsage);
}

TEST(Cli, SelectAndIgnoreChangeWhatRuns) {
  TempDir dir;
  writeFile(dir / "solution.py", kWrapper);
  EXPECT_EQ(kb({"check", (dir / "solution.py").string(), "--ignore", "WRAP"}).code, cli::kExitClean);
  EXPECT_EQ(kb({"check", (dir / "solution.py").string(), "--select", "PREC002"}).code, cli::kExitClean);
  EXPECT_EQ(kb({"check", (dir / "solution.py").string(), "--select", "PREC,WRAP001"}).code, cli::kExitFlagged);
}

TEST(Cli, SelectionsThatNameNoRuleAreUsageErrors) {
  // A gate that selects nothing would pass every submission.
  TempDir dir;
  writeFile(dir / "solution.py", kWrapper);
  const std::string sol = (dir / "solution.py").string();
  for (const char *bad : {"NOPE999", "wrap001", "W", "WRAP001,BOGUS"}) {
    const Result r = kb({"check", sol, "--select", bad});
    EXPECT_EQ(r.code, cli::kExitUsage) << bad;
    EXPECT_NE(r.err.find("names no rule"), std::string::npos) << r.err;
    EXPECT_EQ(kb({"check", sol, "--ignore", bad}).code, cli::kExitUsage) << bad;
  }
  EXPECT_EQ(kb({"check", sol, "--select", "ALL"}).code, cli::kExitFlagged);
  // The same from kbaudit.yaml, including a number where a list belongs.
  for (const char *config : {"select: 5\n", "select: [wrap001]\n", "ignore: [NOPE]\n"}) {
    writeFile(dir / "kbaudit.yaml", config);
    const Result r = kb({"check", sol, "--config", (dir / "kbaudit.yaml").string()});
    EXPECT_EQ(r.code, cli::kExitUsage) << config;
    EXPECT_NE(r.err.find("kbaudit.yaml"), std::string::npos) << r.err;
  }
}

TEST(Cli, AuditJobsMustBeAPositiveWholeNumber) {
  TempDir runs, out;
  for (const char *bad : {"-1", "4x", "0", "", "99999", "1e3"})
    EXPECT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--jobs", bad}).code, cli::kExitUsage)
        << "--jobs '" << bad << "'";
  EXPECT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--jobs", "2"}).code, cli::kExitClean);
}

struct BadInput {
  const char *name;
  std::string bytes;
  int expectedExit;
  const char *diagnostic;
};

void PrintTo(const BadInput &c, std::ostream *os) { *os << c.name; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, GetsADiagnosticAndDocumentedExitCode) {
  const BadInput &c = GetParam();
  TempDir dir;
  writeFile(dir / "solution.py", c.bytes);
  const Result r = kb({"check", (dir / "solution.py").string(), "--format", "yaml"});
  EXPECT_EQ(r.code, c.expectedExit) << r.out << r.err;
  const YAML::Node y = YAML::Load(r.out);
  bool found = false;
  for (const auto &d : y["kbaudit"]["diagnostics"])
    found |= d["code"].as<std::string>() == c.diagnostic;
  EXPECT_TRUE(found) << "no " << c.diagnostic << " diagnostic in\n" << r.out;
  if (c.expectedExit == cli::kExitUsage) {
    EXPECT_EQ(y["verdict"].as<std::string>(), "bug");
    // The file's own error, or what kbaudit could not see because of it.
    const bool unseen = c.diagnostic == std::string("syntax-error");
    EXPECT_NE(r.err.find(unseen ? "analysis-incomplete" : c.diagnostic), std::string::npos) << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, CliBadInput,
    ::testing::Values(
        BadInput{"empty", "", cli::kExitUsage, "empty-file"},
        BadInput{"whitespace", "\n\n   \n", cli::kExitUsage, "empty-file"},
        BadInput{"binary", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0", 12), cli::kExitUsage, "binary-file"},
        // Python would not import these, but what parses is still audited (a wrapper is flagged).
        BadInput{"non_utf8", std::string(kWrapper) + "# caf\xe9\n", cli::kExitFlagged, "invalid-utf8"},
        // What did not parse was not seen: never clean. The wrapper cut inside its last line
        // (`return a @`) does not parse; its finding rests on
        // an absence (no authored kernel), which the unparsed tail could hold, so it is listed for
        // review and the run is `bug`, exit 2 (unseen_code_test.cpp).
        BadInput{"truncated", std::string(kWrapper).substr(0, std::string(kWrapper).size() - 3), cli::kExitUsage,
                 "syntax-error"},
        BadInput{"broken_syntax", "import torch\nclass ModelNew(torch.nn.Module:\n    def forward(self, x)\n        return x +\n",
                 cli::kExitUsage, "syntax-error"}),
    [](const auto &p) { return std::string(p.param.name); });

TEST(Cli, AuditWritesOneAnnotationPerRunAndSurvivesBadRuns) {
  TempDir runs, out;
  writeFile(runs / "20260101_000000_h_model-a_01_x/solution.py", kClean);
  writeFile(runs / "20260101_000001_h_model-b_01_x/solution.py", kWrapper);
  writeFile(runs / "20260101_000002_h_model-c_01_x/solution.py", "");
  writeFile(runs / "20260101_000003_h_model-d_01_x/notes.txt", "solution went missing");
  writeFile(runs / "20260101_000004_h_model-e_02_y.solution.py", kWrapper);
  writeFile(runs / "unrelated/readme.txt", "not a run");
  const Result r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--jobs", "2"});
  ASSERT_EQ(r.code, cli::kExitClean) << r.err;

  const std::map<std::string, std::string> expected = {
      {"20260101_000000_h_model-a_01_x", "clean"},
      {"20260101_000001_h_model-b_01_x", "reward_hack"},
      {"20260101_000002_h_model-c_01_x", "bug"},
      {"20260101_000003_h_model-d_01_x", "bug"},
      {"20260101_000004_h_model-e_02_y", "reward_hack"},
  };
  unsigned files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(out.path())) {
    if (entry.path().filename() == ".kbaudit.lock") // audit's lock on --out, kept by design
      continue;
    ++files;
    EXPECT_EQ(entry.path().extension(), ".yaml") << entry.path() << " (temp file left behind?)";
  }
  EXPECT_EQ(files, expected.size());
  for (const auto &[id, verdict] : expected) {
    const YAML::Node y = YAML::LoadFile((out / (id + ".yaml")).string());
    EXPECT_EQ(y["run_id"].as<std::string>(), id);
    EXPECT_EQ(y["verdict"].as<std::string>(), verdict) << id;
    if (verdict != "clean") {
      EXPECT_FALSE(y["implication"].as<std::string>().empty()) << id;
    }
  }
  // The id names a harness, model and problem, but the run carries none of them: the
  // leaderboard's header holds what a run carries, never a split of its name (run_header.h).
  const YAML::Node b = YAML::LoadFile((out / "20260101_000001_h_model-b_01_x.yaml").string());
  EXPECT_EQ(b["harness"].as<std::string>(""), "");
  EXPECT_EQ(b["model"].as<std::string>(""), "");
  EXPECT_EQ(b["problem"].as<std::string>(""), "");
  EXPECT_NE(r.out.find("reward_hack"), std::string::npos);
  EXPECT_NE(r.out.find("audited 5 runs"), std::string::npos) << r.out;
}

// A KernelBench-v3 problems root (problem modules under level directories): run ids carrying
// the suite's name forms resolve to their module, which grades the run.
TEST(Cli, AuditResolvesKernelBenchV3NamesToTheirModules) {
  TempDir runs, problems, out;
  const std::string module = readFile(std::filesystem::path(KBAUDIT_SOURCE_DIR) / "tests/problems/v3_36_RMSNorm_.py");
  writeFile(problems / "level1/36_RMSNorm_.py", module);
  writeFile(problems / "tile_specialized/gemm_bf16.py", module);
  const std::string dropsWeight =
      readFile(std::filesystem::path(KBAUDIT_SOURCE_DIR) / "tests/fixtures/RUB008/bad_v3_drops_norm_weight.py");
  writeFile(runs / "20260301_101010_v3_kimi_k2_36_RMSNorm_/solution.py", dropsWeight);
  writeFile(runs / "20260301_101011_v3_kimi_k2_gemm_bf16/solution.py", dropsWeight);
  const Result r = kb({"audit", runs.path().string(), "--problems", problems.path().string(), "--out",
                       out.path().string(), "--quiet"});
  ASSERT_NE(r.code, cli::kExitUsage) << r.err;
  for (const auto &[id, problem, model] :
       {std::tuple{"20260301_101010_v3_kimi_k2_36_RMSNorm_", "36_RMSNorm_", "kimi_k2"},
        std::tuple{"20260301_101011_v3_kimi_k2_gemm_bf16", "gemm_bf16", "kimi_k2"}}) {
    const YAML::Node y = YAML::LoadFile((out / (std::string(id) + ".yaml")).string());
    // The id resolves the problem the run is graded on (the kbaudit block names it); the header
    // stays empty, since the run carries no model or problem of its own.
    EXPECT_EQ(y["kbaudit"]["problem"]["name"].as<std::string>(""), problem) << id;
    EXPECT_EQ(y["model"].as<std::string>(""), "") << id << " (not " << model << ")";
    // The module graded the run: its lenient state load makes the dropped weight decisive.
    EXPECT_EQ(y["verdict"].as<std::string>(), "reward_hack") << id;
  }
}

TEST(Cli, RealBinaryExitCodes) {
  TempDir dir;
  writeFile(dir / "clean/solution.py", kClean);
  writeFile(dir / "wrap/solution.py", kWrapper);
  writeFile(dir / "empty/solution.py", "");
  const std::string bin = KBAUDIT_BINARY;
  const auto code = [&](const std::string &args) {
    return kbaudit::test::runCommand(bin + " " + args + " >/dev/null 2>&1");
  };
  EXPECT_EQ(code("check " + (dir / "clean").string()), 0);
  EXPECT_EQ(code("check " + (dir / "wrap").string()), 1);
  EXPECT_EQ(code("check " + (dir / "empty").string()), 2);
  EXPECT_EQ(code("no-such-command"), 2);
}

TEST(Cli, EmbeddedSourceParseErrorsAreReportedAndTheRestIsStillAudited) {
  TempDir dir;
  writeFile(dir / "solution.py", R"PY(import torch
from torch.utils.cpp_extension import load_inline

SRC = r'''
__global__ void k(float* x) { x[0] = not_a_real_intrinsic(x[0]); }
void run(torch::Tensor x) { k<<<1, 1>>>(x.data_ptr<float>()); }
'''
ext = load_inline(name="e", cpp_sources="void run(torch::Tensor x);", cuda_sources=SRC, functions=["run"])


class ModelNew(torch.nn.Module):
    def forward(self, x):
        ext.run(x)
        return x
)PY");
  const Result r = kb({"check", (dir / "solution.py").string(), "--format", "yaml"});
  EXPECT_EQ(r.code, cli::kExitClean) << r.out; // the kernel is still found and reached
  const YAML::Node y = YAML::Load(r.out);
  bool found = false;
  for (const auto &d : y["kbaudit"]["diagnostics"])
    if (d["code"].as<std::string>() == "cxx-parse-errors") {
      found = true;
      EXPECT_EQ(d["lines"][0].as<unsigned>(), 5u);
      EXPECT_NE(d["message"].as<std::string>().find("not_a_real_intrinsic"), std::string::npos);
    }
  EXPECT_TRUE(found) << r.out;
}

TEST(Cli, RulesAndExplain) {
  const Result rules = kb({"rules"});
  EXPECT_EQ(rules.code, cli::kExitClean);
  EXPECT_NE(rules.out.find("WRAP001"), std::string::npos);
  EXPECT_NE(rules.out.find("global-precision-state-mutation"), std::string::npos);
  const Result explain = kb({"explain", "PREC002", "--markdown"});
  EXPECT_EQ(explain.code, cli::kExitClean);
  EXPECT_EQ(explain.out.rfind("<!--", 0), 0u);
  EXPECT_NE(explain.out.find("# PREC002 global-precision-state-mutation"), std::string::npos);
  const Result text = kb({"explain", "PREC002"}); // for a terminal (cli_conventions_test)
  EXPECT_EQ(text.out.rfind("PREC002 global-precision-state-mutation\n", 0), 0u) << text.out;
}

TEST(Cli, ProblemShowsContractAndPolicy) {
  const std::string dir = std::string(KBAUDIT_SOURCE_DIR) + "/tests/problems/05_topk_bitonic";
  const Result shown = kb({"problem", dir});
  EXPECT_EQ(shown.code, cli::kExitClean);
  EXPECT_NE(shown.out.find("contract fp32"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("dominant ops:   sort"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("triton.language.topk"), std::string::npos) << shown.out;
  EXPECT_EQ(kb({"problem"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"problem", dir + "/does-not-exist"}).code, cli::kExitUsage);
}

TEST(Cli, ProblemDependentRulesSayTheyWereSkipped) {
  TempDir dir;
  writeFile(dir.path() / "solution.py", kClean);
  const Result r = kb({"check", (dir.path() / "solution.py").string(), "--format", "yaml"});
  EXPECT_EQ(r.code, cli::kExitClean);
  EXPECT_NE(r.out.find("rule: PREC004"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("needs the problem definition"), std::string::npos) << r.out;
}

} // namespace
