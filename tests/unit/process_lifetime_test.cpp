// Nothing kbaudit starts outlives it: a worker and a sandboxed child end with the process that
// started them, even under SIGKILL; a process told to end kills what it registered and removes
// its private directories first; the next start removes what a killed owner left in $TMPDIR.
// Each test runs the process to be killed as a forked helper, so the test process survives.

#include "process_watch.h"
#include "test_files.h"

#include "../../cli/src/worker_pool.h"
#include "kbaudit/runtime/lifetime.h"
#include "kbaudit/runtime/sandbox.h"

#include <gtest/gtest.h>

#include <csignal>
#include <random>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
namespace lifetime = kbaudit::runtime::lifetime;
using kbaudit::test::processesWith;
using kbaudit::test::processGone;
using kbaudit::test::TempDir;
using kbaudit::test::waitFor;
using kbaudit::test::writeFile;
using namespace std::chrono_literals;

/// A sleep argument no other process on the machine has: how a test finds its child.
std::string uniqueSeconds() {
  std::random_device rd;
  return "9" + std::to_string(100 + rd() % 800) + "." + std::to_string(rd() % 1000000);
}

/// Runs `/bin/sleep seconds` sandboxed, as a probe runs its interpreter, and returns when it ends.
void sleepSandboxed(const std::string &seconds, const fs::path &workdir) {
  kbaudit::runtime::SandboxRequest req;
  req.argv = {"/bin/sleep", seconds};
  req.workdir = workdir;
  req.env = {{"PATH", "/usr/bin:/bin"}};
  req.limits.wall = std::chrono::seconds(120);
  (void)kbaudit::runtime::runSandboxed(req);
}

pid_t reap(pid_t pid, int *status = nullptr) {
  int st = 0;
  const pid_t r = ::waitpid(pid, &st, 0);
  if (status)
    *status = st;
  return r;
}

TEST(ProcessLifetime, AWorkerEndsWithTheProcessThatStartedItEvenUnderSigkill) {
  int pipeFds[2];
  ASSERT_EQ(::pipe(pipeFds), 0);
  const pid_t helper = ::fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    ::close(pipeFds[0]);
    kbaudit::cli::WorkerLimits limits;
    limits.wall = std::chrono::seconds(300);
    kbaudit::cli::runInWorkers(
        1, 1, limits,
        [&](std::size_t) {
          const pid_t me = ::getpid();
          (void)!::write(pipeFds[1], &me, sizeof me);
          ::sleep(120); // a run that takes long: the worker is busy when its parent dies
          return std::string();
        },
        [](std::size_t, kbaudit::cli::WorkerOutcome) {});
    ::_exit(0);
  }
  ::close(pipeFds[1]);
  pid_t worker = 0;
  ASSERT_EQ(::read(pipeFds[0], &worker, sizeof worker), static_cast<ssize_t>(sizeof worker));
  ::close(pipeFds[0]);
  ASSERT_FALSE(processGone(worker));
  ::kill(helper, SIGKILL);
  reap(helper);
  EXPECT_TRUE(waitFor([&] { return processGone(worker); }, 5s)) << "worker " << worker << " outlived its parent";
  if (!processGone(worker))
    ::kill(worker, SIGKILL);
}

TEST(ProcessLifetime, AnUntrustedChildEndsWithItsCallerEvenUnderSigkill) {
  TempDir work;
  const std::string seconds = uniqueSeconds();
  const pid_t helper = ::fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    sleepSandboxed(seconds, work.path());
    ::_exit(0);
  }
  std::vector<pid_t> child;
  ASSERT_TRUE(waitFor([&] { return !(child = processesWith(seconds)).empty(); }, 30s));
  ::kill(helper, SIGKILL);
  reap(helper);
  EXPECT_TRUE(waitFor([&] { return processesWith(seconds).empty(); }, 5s)) << "the sandboxed child outlived its caller";
  for (pid_t p : processesWith(seconds))
    ::kill(p, SIGKILL);
}

TEST(ProcessLifetime, TerminationKillsTheRegisteredChildAndRemovesThePrivateCopy) {
  TempDir tmp;
  const fs::path copy = tmp / "kbaudit-probe-copy";
  writeFile(copy / "run" / "solution.py", "x = 1\n");
  fs::create_directories(copy / "locked" / "deeper");
  writeFile(copy / "locked" / "deeper" / "f", "y");
  ::chmod((copy / "locked").c_str(), 0); // the solution took its own permissions away
  writeFile(tmp / "outside" / "keep.txt", "kept");
  fs::create_symlink(tmp / "outside", copy / "link-out"); // must be unlinked, never followed
  const std::string seconds = uniqueSeconds();
  const pid_t helper = ::fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    lifetime::cleanUpOnTermination();
    const lifetime::GuardedDir guard(copy);
    sleepSandboxed(seconds, tmp.path());
    ::_exit(0);
  }
  ASSERT_TRUE(waitFor([&] { return !processesWith(seconds).empty(); }, 30s));
  ::kill(helper, SIGTERM);
  int status = 0;
  reap(helper, &status);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "it should end as SIGTERM ends it";
  EXPECT_TRUE(waitFor([&] { return processesWith(seconds).empty(); }, 5s));
  EXPECT_FALSE(fs::exists(copy));
  EXPECT_TRUE(fs::exists(tmp / "outside" / "keep.txt"));
  for (pid_t p : processesWith(seconds))
    ::kill(p, SIGKILL);
}

TEST(ProcessLifetime, TheNextStartRemovesCopiesWhoseOwnerIsGoneAndOnlyThose) {
  TempDir tmp;
  const pid_t dead = ::fork();
  if (dead == 0)
    ::_exit(0);
  reap(dead);
  const fs::path stale = tmp / ("kbaudit-probe-" + std::to_string(dead) + "-abcdef");
  writeFile(stale / "run" / "solution.py", "x = 1\n");
  const fs::path live = tmp / ("kbaudit-probe-" + std::to_string(::getppid()) + "-abcdef");
  writeFile(live / "run" / "solution.py", "x = 1\n");
  const fs::path noOwner = tmp / "kbaudit-probe-Xy12ab"; // an older kbaudit's name: whose is unknown
  fs::create_directories(noOwner);
  const fs::path other = tmp / ("kbaudit-other-" + std::to_string(dead) + "-abcdef");
  fs::create_directories(other);
  writeFile(tmp / "target" / "keep.txt", "kept");
  fs::create_symlink(tmp / "target", tmp / ("kbaudit-probe-" + std::to_string(dead) + "-link"));

  EXPECT_EQ(lifetime::removeStaleDirs("kbaudit-probe", tmp.path()), 1u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live / "run" / "solution.py"));
  EXPECT_TRUE(fs::exists(noOwner));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(tmp / "target" / "keep.txt"));
}

TEST(ProcessLifetime, OwnedDirectoriesNameTheirOwner) {
  TempDir tmp;
  const std::optional<fs::path> dir = lifetime::makeOwnedDir("kbaudit-probe", tmp.path());
  ASSERT_TRUE(dir);
  EXPECT_EQ(dir->filename().string().rfind("kbaudit-probe-" + std::to_string(::getpid()) + "-", 0), 0u) << *dir;
  struct stat st {};
  ASSERT_EQ(::stat(dir->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  // Its owner (this process) is alive: never removed.
  EXPECT_EQ(lifetime::removeStaleDirs("kbaudit-probe", tmp.path()), 0u);
  EXPECT_TRUE(fs::exists(*dir));
  EXPECT_FALSE(lifetime::removeTree("/"));
  EXPECT_TRUE(lifetime::removeTree(dir->c_str()));
  EXPECT_FALSE(fs::exists(*dir));
}

} // namespace
