// Every option does what its help says: the config's `problems` key in `check`, `audit
// --statistics --output-file`, the result cache in the user's cache folder (never the working
// directory), one fingerprint for every spelling of a path, accepted findings counted as
// accepted, `kbaudit baseline` and `--new-only`, and a `check` that does not compile unless asked.

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include "kbaudit/annotations/yaml_writer.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using namespace kbaudit;
using test::kb;
using test::kClean;
using test::kWrapper;
using test::readFile;
using test::TempDir;
using test::writeFile;

const fs::path kSource = KBAUDIT_SOURCE_DIR;

/// A problems tree holding the fp32 GEMM test problem (it forbids torch.matmul: WRAP005) and a
/// run of a torch wrapper named for it.
void makeSweep(const fs::path &root) {
  for (const char *f : {"problem.yaml", "reference.py"})
    writeFile(root / "problems" / "fp32_gemm" / f, readFile(kSource / "tests/problems/fp32_gemm" / f));
  writeFile(root / "runs" / "20260101_000000_h_m_fp32_gemm" / "solution.py", kWrapper);
}

/// The real binary run in `dir` with `env` (VAR=value ...); stdout and stderr together.
struct Shell {
  int code;
  std::string out;
};
Shell shell(const fs::path &dir, const std::string &env, const std::string &args) {
  TempDir io;
  const int code = test::runCommand("cd '" + dir.string() + "' && env " + env + " " KBAUDIT_BINARY " " + args + " >'" +
                                    (io / "out").string() + "' 2>&1");
  return {code, readFile(io / "out")};
}

bool hasFinding(const YAML::Node &annotation, const std::string &rule) {
  for (const auto &f : annotation["kbaudit"]["findings"])
    if (f["rule"].as<std::string>() == rule)
      return true;
  return false;
}

TEST(CliPromises, CheckReadsTheConfigsProblemsTree) {
  TempDir dir;
  makeSweep(dir.path());
  // The forbidden op itself (the sweep's wrapper multiplies with `@`).
  writeFile(dir / "runs/20260101_000000_h_m_fp32_gemm/solution.py",
            "import torch\n\n\nclass ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n"
            "        return torch.matmul(a, b)\n");
  writeFile(dir / "kbaudit.yaml", "problems: problems/\n");
  const auto r = kb({"check", (dir / "runs/20260101_000000_h_m_fp32_gemm").string(), "--config",
                     (dir / "kbaudit.yaml").string(), "--format", "yaml"});
  ASSERT_EQ(r.code, cli::kExitFlagged) << r.err;
  const YAML::Node y = YAML::Load(r.out);
  ASSERT_TRUE(y["kbaudit"]["problem"].IsMap()) << "the config's problems: key was ignored\n" << r.out;
  EXPECT_EQ(y["kbaudit"]["problem"]["name"].as<std::string>(), "fp32_gemm");
  EXPECT_TRUE(hasFinding(y, "WRAP005")) << "problem-aware rules ran: torch.matmul is forbidden\n" << r.out;
  // The command line still wins: --problem names another problem.
  const auto other = kb({"check", (dir / "runs/20260101_000000_h_m_fp32_gemm").string(), "--config",
                         (dir / "kbaudit.yaml").string(), "--problem", (kSource / "tests/problems/bf16_gemm").string(),
                         "--format", "yaml"});
  EXPECT_EQ(YAML::Load(other.out)["kbaudit"]["problem"]["name"].as<std::string>(""), "bf16_gemm") << other.out;
}

TEST(CliPromises, AuditStatisticsGoToTheOutputFile) {
  TempDir dir;
  makeSweep(dir.path());
  const fs::path stats = dir / "stats.txt";
  const auto r = kb({"audit", (dir / "runs").string(), "--out", (dir / "out").string(), "--no-cache", "--statistics",
                     "--output-file", stats.string()});
  ASSERT_EQ(r.code, cli::kExitClean) << r.err;
  ASSERT_TRUE(fs::exists(stats)) << "--output-file was left unwritten";
  EXPECT_NE(readFile(stats).find("1  WRAP001  no-authored-kernel"), std::string::npos) << readFile(stats);
  EXPECT_NE(readFile(stats).find("kbaudit: audited 1 run"), std::string::npos) << "the summary goes with it";
  EXPECT_EQ(r.out, "") << "nothing left on stdout";
  // With a report format the statistics follow the report in the file, and the summary stays
  // on stdout.
  const auto report = kb({"audit", (dir / "runs").string(), "--out", (dir / "out2").string(), "--no-cache",
                          "--statistics", "--output-format", "concise", "-o", stats.string()});
  ASSERT_EQ(report.code, cli::kExitClean) << report.err;
  const std::string text = readFile(stats);
  EXPECT_NE(text.find("WRAP001 [reward_hack]"), std::string::npos) << text;
  EXPECT_LT(text.find("Found 1 finding"), text.find("1  WRAP001  no-authored-kernel")) << text;
  EXPECT_NE(report.out.find("kbaudit: audited 1 run"), std::string::npos) << report.out;
}

TEST(CliPromises, TheResultCacheLivesInTheUsersCacheFolderNeverTheWorkingDirectory) {
  TempDir dir;
  makeSweep(dir.path());
  const fs::path work = dir / "work";
  fs::create_directories(work);
  const std::string args = "audit ../runs --out ../out --quiet";
  ASSERT_EQ(shell(work, "XDG_CACHE_HOME='" + (dir / "xdg").string() + "'", args).code, 0);
  EXPECT_FALSE(fs::exists(work / ".kbaudit_cache")) << "a cache folder in whatever directory the audit ran from";
  EXPECT_TRUE(fs::exists(dir / "xdg/kbaudit/CACHEDIR.TAG"));
  // Without XDG_CACHE_HOME: ~/.cache/kbaudit.
  ASSERT_EQ(shell(work, "-u XDG_CACHE_HOME HOME='" + (dir / "home").string() + "'", args + " --fresh").code, 0);
  EXPECT_TRUE(fs::exists(dir / "home/.cache/kbaudit/CACHEDIR.TAG"));
  EXPECT_FALSE(fs::exists(work / ".kbaudit_cache"));
  // --cache-dir names another.
  ASSERT_EQ(shell(work, "", args + " --fresh --cache-dir ../mine").code, 0);
  EXPECT_TRUE(fs::exists(dir / "mine/CACHEDIR.TAG"));
  // A second audit reads the first's results back from the default folder.
  const Shell again = shell(work, "XDG_CACHE_HOME='" + (dir / "xdg").string() + "'", "audit ../runs --out ../out-again");
  EXPECT_NE(again.out.find("1 result read from the cache " + (dir / "xdg/kbaudit").string()), std::string::npos)
      << again.out;
}

TEST(CliPromises, RelativeAndAbsoluteSpellingsOfThePathsAreOneAudit) {
  TempDir dir;
  makeSweep(dir.path());
  const Shell first = shell(dir.path(), "", "audit runs --problems problems --out out --no-cache");
  ASSERT_EQ(first.code, 0) << first.out;
  const std::string root = fs::canonical(dir.path()).string();
  const Shell second =
      shell(dir.path(), "", "audit " + root + "/runs --problems " + root + "/./problems/ --out out --no-cache");
  ASSERT_EQ(second.code, 0) << second.out;
  EXPECT_NE(second.out.find("(1 annotation already up to date in the folder, kept"), std::string::npos)
      << "another spelling of the same --problems re-audited every run:\n"
      << second.out;
}

TEST(CliPromises, AcceptedFindingsAreCountedAsAcceptedNotAsReview) {
  TempDir dir;
  writeFile(dir / "20260101_000000_h_m_x/solution.py", kWrapper);
  writeFile(dir / "baseline.yaml", "accepted:\n  - run: 20260101_000000_h_m_x\n    rule: WRAP001\n"
                                   "    reason: plain torch is allowed here\n    who: reviewer@example\n");
  const auto r = kb({"check", (dir / "20260101_000000_h_m_x").string(), "--baseline", (dir / "baseline.yaml").string(),
                     "--format", "yaml"});
  ASSERT_EQ(r.code, cli::kExitClean) << r.err << r.out;
  const std::string summary = YAML::Load(r.out)["summary"].as<std::string>();
  EXPECT_EQ(summary.find("for review"), std::string::npos) << summary;
  EXPECT_NE(summary.find("accepted"), std::string::npos) << summary;
  EXPECT_NE(summary.find("WRAP001"), std::string::npos) << summary;
}

TEST(CliPromises, BaselineCommandWritesAndUpdatesABaselineAndNewOnlyShowsWhatItLacks) {
  TempDir dir;
  const fs::path old = dir / "20260101_000000_h_m_old", fresh = dir / "20260101_000001_h_m_new";
  writeFile(old / "solution.py", kWrapper);
  writeFile(fresh / "solution.py", kWrapper);
  const std::string baseline = (dir / "kbaudit-baseline.yaml").string();

  const auto wrote = kb({"baseline", old.string(), "--baseline", baseline, "--who", "me@example"});
  ASSERT_EQ(wrote.code, cli::kExitClean) << wrote.err;
  EXPECT_NE(wrote.out.find("1 new entry"), std::string::npos) << wrote.out;
  const YAML::Node file = YAML::LoadFile(baseline);
  ASSERT_EQ(file["accepted"].size(), 1u) << readFile(baseline);
  EXPECT_EQ(file["accepted"][0]["run"].as<std::string>(), "20260101_000000_h_m_old");
  EXPECT_EQ(file["accepted"][0]["rule"].as<std::string>(), "WRAP001");
  EXPECT_EQ(file["accepted"][0]["who"].as<std::string>(), "me@example");
  EXPECT_FALSE(file["accepted"][0]["reason"].as<std::string>().empty());

  // The baseline gates: the old run passes, the new one does not.
  EXPECT_EQ(kb({"check", old.string(), "--baseline", baseline}).code, cli::kExitClean);
  EXPECT_EQ(kb({"check", fresh.string(), "--baseline", baseline}).code, cli::kExitFlagged);
  // --new-only: what the baseline lacks, nothing else.
  const auto news = kb({"check", old.string(), fresh.string(), "--baseline", baseline, "--new-only", "--output-format",
                        "concise"});
  EXPECT_EQ(news.code, cli::kExitFlagged);
  EXPECT_EQ(news.out.find("_old"), std::string::npos) << news.out;
  EXPECT_NE(news.out.find("_new/solution.py:6:9: WRAP001"), std::string::npos) << news.out;
  EXPECT_NE(news.out.find("Found 1 finding in 2 files."), std::string::npos) << news.out;
  // Without it, the accepted finding is still listed, marked.
  const auto all = kb({"check", old.string(), "--baseline", baseline, "--output-format", "concise"});
  EXPECT_NE(all.out.find("accepted"), std::string::npos) << all.out;
  EXPECT_EQ(kb({"check", old.string(), "--new-only"}).code, cli::kExitUsage) << "--new-only needs a baseline";

  // Updating: the old entry stays, the new run's finding is added, nothing twice.
  const auto updated = kb({"baseline", old.string(), fresh.string(), "--baseline", baseline, "--who", "me@example"});
  ASSERT_EQ(updated.code, cli::kExitClean) << updated.err;
  EXPECT_NE(updated.out.find("1 new entry"), std::string::npos) << updated.out;
  EXPECT_EQ(YAML::LoadFile(baseline)["accepted"].size(), 2u) << readFile(baseline);
  EXPECT_EQ(kb({"check", old.string(), fresh.string(), "--baseline", baseline}).code, cli::kExitClean);
}

TEST(CliPromises, CheckDoesNotCompileUnlessAsked) {
  // An nvcc that leaves a mark: `check` must not run it by default (a cold compile of a torch
  // extension source took 29 s), and must with --compile.
  TempDir dir;
  const fs::path nvcc = dir / "bin/nvcc", mark = dir / "nvcc-ran";
  writeFile(nvcc, "#!/bin/sh\ntouch '" + mark.string() + "'\nexit 1\n");
  fs::permissions(nvcc, fs::perms::owner_all);
  writeFile(dir / "run/solution.py", R"PY(import torch
from torch.utils.cpp_extension import load_inline

SRC = r'''
__global__ void k(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2.0f; }
void run(torch::Tensor x) { k<<<1, 256>>>(x.data_ptr<float>(), x.numel()); }
'''
ext = load_inline(name="e", cpp_sources="void run(torch::Tensor x);", cuda_sources=SRC, functions=["run"])


class ModelNew(torch.nn.Module):
    def forward(self, x):
        ext.run(x)
        return x
)PY");
  const std::string env = "KBAUDIT_NVCC='" + nvcc.string() + "' KBAUDIT_COMPILE_CACHE='" + (dir / "cc").string() + "'";
  const Shell plain = shell(dir.path(), env, "check run --format yaml");
  EXPECT_EQ(plain.code, 0) << plain.out;
  EXPECT_FALSE(fs::exists(mark)) << "check ran nvcc without --compile";
  EXPECT_EQ(plain.out.find("not-compiled"), std::string::npos) << plain.out;
  shell(dir.path(), env, "check run --compile --format yaml");
  EXPECT_TRUE(fs::exists(mark)) << "--compile did not run the compiler";
  // The help says which.
  const std::string help = kb({"check", "--help"}).out;
  EXPECT_NE(help.find("--compile"), std::string::npos) << help;
  EXPECT_NE(help.find("off by default"), std::string::npos) << help;
  // A compile option without --compile would do nothing: it is refused.
  EXPECT_EQ(kb({"check", (dir / "run").string(), "--arch", "sm_90a"}).code, cli::kExitUsage);
}

TEST(CliPromises, PreCommitHookAndActionNeverCompile) {
  // A cold compile never blocks a commit: the hook's entry is a plain `kbaudit check`, which
  // no longer compiles, and asks for no compile either.
  const YAML::Node hooks = YAML::LoadFile((kSource / ".pre-commit-hooks.yaml").string());
  for (const auto &hook : hooks) {
    const std::string entry = hook["entry"].as<std::string>();
    EXPECT_EQ(entry.find("--compile"), std::string::npos) << entry;
    for (const auto &arg : hook["args"])
      EXPECT_NE(arg.as<std::string>(), "--compile");
  }
}

} // namespace
