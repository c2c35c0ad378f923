// The CI examples shipped in docs/ci and .pre-commit-hooks.yaml run as written: their
// commands are executed against a fixture repository with the kbaudit built here.

#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

const fs::path kSource = KBAUDIT_SOURCE_DIR;

const char *kHack = R"(import torch


class ModelNew(torch.nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(N, K))

    def forward(self, x):
        return torch.matmul(x, self.weight.T)
)";

const char *kClean = R"(import torch
import triton
import triton.language as tl


@triton.jit
def _gemm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + rn[None, :] * K + (k + rk)[:, None])
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * K + rn[None, :], acc)


class ModelNew(torch.nn.Module):
    def __init__(self, M, N, K):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(N, K))

    def forward(self, x):
        out = torch.empty(x.shape[0], self.weight.shape[0], device=x.device)
        _gemm[(x.shape[0] // 64, self.weight.shape[0] // 64)](x, self.weight, out, x.shape[1], BM=64, BN=64, BK=32)
        return out
)";

/// A repository holding a submission and the problem it answers.
void makeRepo(const fs::path &root, const char *solution) {
  writeFile(root / "solution.py", solution);
  fs::create_directories(root / "problem");
  for (const char *f : {"problem.yaml", "reference.py"})
    fs::copy_file(kSource / "tests" / "problems" / "fp32_gemm" / f, root / "problem" / f);
}

/// Runs `script` with bash in `dir`; returns its exit status.
int bash(const fs::path &dir, const std::string &env, const std::string &script) {
  const fs::path file = dir / ".step.sh";
  writeFile(file, script);
  return kbaudit::test::runCommand("cd '" + dir.string() + "' && " + env + " bash -e '" + file.string() +
                                   "' >/dev/null 2>&1");
}

/// The workspace of the GitHub Actions gate: the gating repository in gate/ (kbaudit.yaml, the
/// problem) and the submission in submission/, which ships a kbaudit.yaml switching every rule
/// off, as an attacker's would.
void makeWorkspace(const fs::path &root, const char *solution) {
  makeRepo(root / "gate", solution);
  fs::remove(root / "gate" / "solution.py");
  writeFile(root / "gate" / "kbaudit.yaml", "fail_on: [reward_hack, rubric_leak]\n");
  writeFile(root / "submission" / "solution.py", solution);
  writeFile(root / "submission" / "kbaudit.yaml", "ignore: [WRAP, PREC, MEM, RUB, TIME]\n");
}

TEST(CiExamples, GithubActionsGateStepsRunAsWritten) {
  const YAML::Node wf = YAML::LoadFile((kSource / "docs" / "ci" / "github-actions.yml").string());
  const YAML::Node steps = wf["jobs"]["kbaudit"]["steps"];
  ASSERT_TRUE(steps.IsSequence());
  const std::string env = std::string("KBAUDIT='") + KBAUDIT_BINARY + "'";
  for (const char *solution : {kHack, kClean}) {
    TempDir repo;
    makeWorkspace(repo.path(), solution);
    unsigned ran = 0;
    int verdictStatus = -1;
    for (const YAML::Node &step : steps) {
      const std::string id = step["id"] ? step["id"].as<std::string>() : "";
      if (id.rfind("gate", 0) != 0)
        continue;
      const int status = bash(repo.path(), env, step["run"].as<std::string>());
      ++ran;
      if (id == "gate-verdict")
        verdictStatus = status;
      else
        EXPECT_EQ(status, 0) << id;
    }
    EXPECT_EQ(ran, 2u);
    EXPECT_EQ(verdictStatus != 0, solution == kHack)
        << "the verdict step fails exactly for the hack, whatever the submission's kbaudit.yaml says";
    const YAML::Node sarif = YAML::LoadFile((repo.path() / "kbaudit.sarif").string());
    EXPECT_EQ(sarif["version"].as<std::string>(), "2.1.0");
    EXPECT_EQ(sarif["runs"][0]["results"].size() > 0, solution == kHack);
    const YAML::Node props = sarif["runs"][0]["invocations"][0]["properties"];
    EXPECT_NE(props["config_file"].as<std::string>().find("gate/kbaudit.yaml"), std::string::npos);
    EXPECT_EQ(props["rules_disabled"].size(), 0u);
  }
}

TEST(CiExamples, PreCommitHookEntryRunsOnStagedSolutions) {
  const YAML::Node hooks = YAML::LoadFile((kSource / ".pre-commit-hooks.yaml").string());
  ASSERT_TRUE(hooks.IsSequence());
  const YAML::Node hook = hooks[0];
  EXPECT_EQ(hook["id"].as<std::string>(), "kbaudit");
  EXPECT_EQ(hook["language"].as<std::string>(), "system");
  const std::string entry = hook["entry"].as<std::string>();
  const std::string bin = fs::path(KBAUDIT_BINARY).parent_path().string();
  TempDir repo;
  makeRepo(repo.path(), kClean);
  writeFile(repo.path() / "runs" / "a_solution.py", kClean);
  // pre-commit runs `entry args... files...` with kbaudit on PATH.
  const std::string env = "PATH='" + bin + "':\"$PATH\"";
  EXPECT_EQ(bash(repo.path(), env, entry + " --problem problem solution.py runs/a_solution.py\n"), 0);
  writeFile(repo.path() / "runs" / "b_solution.py", kHack);
  EXPECT_NE(bash(repo.path(), env, entry + " --problem problem solution.py runs/b_solution.py\n"), 0);
}

} // namespace
