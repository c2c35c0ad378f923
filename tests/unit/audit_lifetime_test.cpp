// A killed `kbaudit audit` (SIGKILL or SIGTERM) leaves nothing running, its lock is taken over by
// the next audit into the same folder, and that audit writes only what is missing or stale.
// The binary itself runs here (build/kbaudit), killed as a user or a scheduler would kill it.

#include "process_watch.h"
#include "runtime_support.h"
#include "sample_solutions.h"
#include "test_files.h"

#include "kbaudit/annotations/run_file_name.h"
#include "kbaudit/annotations/yaml_writer.h"

#include <gtest/gtest.h>

#include <csignal>
#include <map>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using kbaudit::annotations::annotationFileName;
using kbaudit::annotations::fromYaml;
using kbaudit::test::processesWith;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::waitFor;
using kbaudit::test::writeFile;
using namespace std::chrono_literals;

constexpr int kCleanRuns = 6;
const std::string kSlowRun = "20260101_999999_h_m_99_slow"; // sorts last: audited after the others

std::string cleanRun(int i) { return "20260101_000000_h_m_" + std::to_string(10 + i) + "_clean"; }

/// Each macro doubles the one before: Clang expands `A39` (2^39 tokens) for as long as it is let.
std::string slowSolution() {
  std::string src = "#define A0 x\n";
  for (int i = 1; i < 40; ++i)
    src += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
  src += "int y = A39;\n";
  return "import torch\nfrom torch.utils.cpp_extension import load_inline\nsrc = r'''\n" + src +
         "'''\next = load_inline(name='x', cpp_sources=src, functions=[])\n"
         "class ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n        return torch.matmul(a, b)\n";
}

/// Starts build/kbaudit with `args` (stdout and stderr to `log`, TMPDIR set to `tmp`).
pid_t spawn(const std::vector<std::string> &args, const fs::path &log, const fs::path &tmp) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    std::vector<char *> argv{const_cast<char *>(KBAUDIT_BINARY)};
    for (const std::string &a : args)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(KBAUDIT_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

struct Finished {
  int code = -1;
  std::string output;
};

Finished runToEnd(const std::vector<std::string> &args, const fs::path &log, const fs::path &tmp) {
  const pid_t pid = spawn(args, log, tmp);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readFile(log)};
}

ino_t inode(const fs::path &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

class KilledAudit : public ::testing::TestWithParam<int> {};

TEST_P(KilledAudit, LeavesNoWorkerAndTheNextAuditTakesOverAndResumes) {
  TempDir runs, out, tmp;
  for (int i = 0; i < kCleanRuns; ++i)
    writeFile(runs / cleanRun(i) / "solution.py", kbaudit::test::kClean);
  writeFile(runs / kSlowRun / "solution.py", slowSolution());
  const std::vector<std::string> args = {"audit", runs.path().string(), "--out", out.path().string(), "--jobs", "1"};

  const pid_t audit = spawn(args, tmp / "first.log", tmp.path());
  // Killed while its worker is busy with the slow run, after the others were written.
  const bool busy = waitFor(
      [&] {
        for (int i = 0; i < kCleanRuns; ++i)
          if (!fs::exists(out / annotationFileName(cleanRun(i))))
            return false;
        return processesWith(out.path().string()).size() >= 2; // the audit and its worker
      },
      180s);
  std::map<std::string, ino_t> before;
  for (int i = 0; i < kCleanRuns; ++i)
    before[cleanRun(i)] = inode(out / annotationFileName(cleanRun(i)));
  ::kill(audit, GetParam());
  ::waitpid(audit, nullptr, 0);
  ASSERT_TRUE(busy) << readFile(tmp / "first.log");
  EXPECT_TRUE(waitFor([&] { return processesWith(out.path().string()).empty(); }, 5s))
      << processesWith(out.path().string()).size() << " process(es) of the killed audit still run";
  for (pid_t p : processesWith(out.path().string()))
    ::kill(p, SIGKILL);

  // The next audit is not locked out, keeps the annotations already written and audits the rest
  // (the slow run, stopped by its time limit and retried without Clang: never clean).
  std::vector<std::string> again = args;
  again.insert(again.end(), {"--run-timeout", "2"});
  const Finished second = runToEnd(again, tmp / "second.log", tmp.path());
  ASSERT_EQ(second.code, 0) << second.output;
  EXPECT_NE(second.output.find("(" + std::to_string(kCleanRuns) + " annotations already up to date"), std::string::npos)
      << second.output;
  for (const auto &[id, ino] : before)
    EXPECT_EQ(inode(out / annotationFileName(id)), ino) << id << " was written again";
  const fs::path slow = out / annotationFileName(kSlowRun);
  ASSERT_TRUE(fs::exists(slow)) << second.output;
  EXPECT_EQ(fromYaml(readFile(slow)).verdict, "bug");

  // A changed solution is stale: only its annotation is written again.
  writeFile(runs / cleanRun(0) / "solution.py", std::string(kbaudit::test::kWrapper));
  const ino_t slowInode = inode(slow);
  const Finished third = runToEnd(again, tmp / "third.log", tmp.path());
  ASSERT_EQ(third.code, 0) << third.output;
  EXPECT_NE(inode(out / annotationFileName(cleanRun(0))), before[cleanRun(0)]);
  EXPECT_EQ(fromYaml(readFile(out / annotationFileName(cleanRun(0)))).verdict, "reward_hack");
  EXPECT_EQ(inode(out / annotationFileName(cleanRun(1))), before[cleanRun(1)]);
  // The slow run's retry is as up to date as any other annotation: kept, not timed out again.
  EXPECT_EQ(inode(slow), slowInode);
}

INSTANTIATE_TEST_SUITE_P(Signals, KilledAudit, ::testing::Values(SIGKILL, SIGTERM),
                         [](const ::testing::TestParamInfo<int> &p) { return p.param == SIGKILL ? "Sigkill" : "Sigterm"; });

TEST(AuditResume, FreshAuditsEveryRunAgainAndOtherOptionsAreNotUpToDate) {
  TempDir runs, out, tmp;
  writeFile(runs / cleanRun(0) / "solution.py", kbaudit::test::kClean);
  const std::vector<std::string> args = {"audit", runs.path().string(), "--out", out.path().string()};
  ASSERT_EQ(runToEnd(args, tmp / "a.log", tmp.path()).code, 0);
  const fs::path yaml = out / annotationFileName(cleanRun(0));
  const ino_t first = inode(yaml);
  EXPECT_FALSE(fromYaml(readFile(yaml)).kbaudit.fingerprint.empty());
  ASSERT_EQ(runToEnd(args, tmp / "b.log", tmp.path()).code, 0);
  EXPECT_EQ(inode(yaml), first);
  std::vector<std::string> fresh = args;
  fresh.push_back("--fresh");
  ASSERT_EQ(runToEnd(fresh, tmp / "c.log", tmp.path()).code, 0);
  const ino_t second = inode(yaml);
  EXPECT_NE(second, first);
  std::vector<std::string> narrower = args;
  narrower.insert(narrower.end(), {"--select", "WRAP"});
  ASSERT_EQ(runToEnd(narrower, tmp / "d.log", tmp.path()).code, 0);
  EXPECT_NE(inode(yaml), second) << "an annotation made with other rules is not up to date";
}

// With --runtime the worker runs a probe: a sandboxed interpreter on a private copy of the
// solution. Killing the audit must end both and remove the copy.
class KilledRuntimeAudit : public ::testing::TestWithParam<int> {};

TEST_P(KilledRuntimeAudit, LeavesNoProbeAndNoPrivateCopy) {
  REQUIRE_TORCH();
  TempDir runs, out, tmp;
  const fs::path src = fs::path(KBAUDIT_SOURCE_DIR) / "tests/runtime";
  writeFile(runs / "20260101_000000_h_m_01_tiny_gemm" / "solution.py",
            readFile(src / "solutions/hostile_infinite_loop/solution.py"));
  // Its problem by name (the run id's trailing part is the problem's number and name).
  writeFile(runs / "20260101_000000_h_m_01_tiny_gemm" / "meta.json", "{\"problem\": \"tiny_gemm\"}");
  const pid_t real = spawn({"audit", runs.path().string(), "--out", out.path().string(), "--problems",
                            (src / "problems").string(), "--runtime", "--device", "cpu", "--probe-timeout", "600",
                            "--jobs", "1"},
                           tmp / "real.log", tmp.path());
  const auto probeCopies = [&] {
    std::vector<fs::path> dirs;
    for (const auto &e : fs::directory_iterator(tmp.path()))
      if (e.path().filename().string().rfind("kbaudit-probe-", 0) == 0)
        dirs.push_back(e.path());
    return dirs;
  };
  const bool probing = waitFor([&] { return !probeCopies().empty() && !processesWith("kbaudit-probe-").empty() &&
                                            !processesWith(probeCopies().front().string()).empty(); },
                               120s);
  ::kill(real, GetParam());
  ::waitpid(real, nullptr, 0);
  ASSERT_TRUE(probing) << readFile(tmp / "real.log");
  EXPECT_TRUE(waitFor([&] { return processesWith(out.path().string()).empty(); }, 5s)) << "a worker outlived the audit";
  EXPECT_TRUE(waitFor([&] { return processesWith(tmp.path().string() + "/kbaudit-probe-").empty(); }, 5s))
      << "the probe's interpreter outlived the audit";
  EXPECT_TRUE(waitFor([&] { return probeCopies().empty(); }, 5s)) << "the private copy of the solution is left behind";
  for (const std::string &marker : {out.path().string(), tmp.path().string() + "/kbaudit-probe-"})
    for (pid_t p : processesWith(marker))
      ::kill(p, SIGKILL);
}

INSTANTIATE_TEST_SUITE_P(Signals, KilledRuntimeAudit, ::testing::Values(SIGKILL, SIGTERM),
                         [](const ::testing::TestParamInfo<int> &p) { return p.param == SIGKILL ? "Sigkill" : "Sigterm"; });

} // namespace
