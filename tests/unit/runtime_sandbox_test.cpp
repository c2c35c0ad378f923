// runSandboxed with plain /bin/sh and /usr/bin/python3 commands (no torch needed): exit codes
// and signals, the wall-clock timeout killing the whole group, capped output, the private
// answer pipe, stdin that cannot block or kill kbaudit, a scrubbed environment, rlimits, a
// contained fork bomb, and (when the tests run as root) the unprivileged uid and its sweep.

#include "kbaudit/runtime/sandbox.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <set>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace kbaudit::runtime;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

SandboxRequest shell(const std::string &script, const fs::path &workdir) {
  SandboxRequest r;
  r.argv = {"/bin/sh", "-c", script};
  r.workdir = workdir;
  r.env = {{"PATH", "/usr/bin:/bin"}};
  r.limits.wall = 20s;
  return r;
}

/// Reads a pid a child wrote, or -1.
pid_t pidIn(const fs::path &file) {
  const std::string text = readFile(file);
  return text.empty() ? -1 : static_cast<pid_t>(std::atol(text.c_str()));
}

/// A process that is gone or a zombie (killed, not yet reaped by whoever adopted it).
bool deadOrZombie(pid_t pid) {
  const std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty())
    return true;
  const std::size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z';
}

/// Live (non-zombie) processes whose process group or uid matches.
std::set<pid_t> liveProcesses(pid_t group, int uid) {
  std::set<pid_t> out;
  for (const auto &e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0])))
      continue;
    const std::string stat = readFile(e.path() / "stat");
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos)
      continue;
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (std::sscanf(stat.c_str() + close + 2, "%c %d %d", &state, &ppid, &pgrp) != 3 || state == 'Z')
      continue;
    struct stat st {};
    const bool uidMatch = uid >= 0 && ::stat(e.path().c_str(), &st) == 0 && static_cast<int>(st.st_uid) == uid;
    if (pgrp == group || uidMatch)
      out.insert(static_cast<pid_t>(std::atol(name.c_str())));
  }
  return out;
}

/// The PID namespace a child wrote (`readlink /proc/self/ns/pid`), or "" when it is ours: then
/// its pids are the host's.
std::string childNamespace(const fs::path &file) {
  std::string ns = readFile(file);
  while (!ns.empty() && ns.back() == '\n')
    ns.pop_back();
  std::error_code ec;
  return ns == fs::read_symlink("/proc/self/ns/pid", ec).string() ? "" : ns;
}

/// Live (non-zombie) processes in the PID namespace `ns`.
std::set<pid_t> liveInNamespace(const std::string &ns) {
  std::set<pid_t> out;
  for (const auto &e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0])))
      continue;
    std::error_code ec;
    if (fs::read_symlink(e.path() / "ns" / "pid", ec).string() != ns)
      continue;
    const std::string stat = readFile(e.path() / "stat");
    const std::size_t close = stat.rfind(')');
    if (close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z')
      out.insert(static_cast<pid_t>(std::atol(name.c_str())));
  }
  return out;
}

/// Waits up to `limit` for `done`; returns its last value.
template <class F> bool eventually(F done, std::chrono::milliseconds limit = 3s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end)
      return done();
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

#define REQUIRE_PYTHON()                                                                                           \
  do {                                                                                                             \
    if (!fs::exists("/usr/bin/python3")) {                                                                         \
      GTEST_SKIP() << "no /usr/bin/python3 on this machine";                                                       \
    }                                                                                                              \
  } while (false)

/// A uid for tests that run as root, claimed with the same lock kbaudit's probes use so no
/// concurrent probe shares (and sweeps) it.
struct TestUid {
  int fd = -1;
  unsigned uid = 0;
  TestUid() {
    ::mkdir("/tmp/kbaudit-uid-locks", 0700);
    for (unsigned u = 64999; u > 64900 && !uid; --u) {
      const std::string path = "/tmp/kbaudit-uid-locks/" + std::to_string(u);
      fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
      if (fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
        uid = u;
      else if (fd >= 0)
        ::close(fd), fd = -1;
    }
  }
  ~TestUid() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

TEST(RuntimeSandbox, ReportsExitCodeAndBothStreams) {
  TempDir dir;
  const SandboxResult r = runSandboxed(shell("echo out; echo err >&2; exit 7", dir.path()));
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.exitCode, 7);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.timedOut);
  EXPECT_EQ(r.stdoutTail, "out\n");
  EXPECT_EQ(r.stderrTail, "err\n");
  EXPECT_TRUE(r.answer.empty()) << "stdout must never reach the answer";
  EXPECT_FALSE(r.isolation.empty());
}

TEST(RuntimeSandbox, ReportsTheKillingSignal) {
  TempDir dir;
  const SandboxResult r = runSandboxed(shell("kill -SEGV $$", dir.path()));
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.exitCode, -1);
  EXPECT_FALSE(r.timedOut);
}

TEST(RuntimeSandbox, ExecFailureIsNotAStart) {
  TempDir dir;
  SandboxRequest req = shell("", dir.path());
  req.argv = {"/nonexistent/python3", "-c", "1"};
  const SandboxResult r = runSandboxed(req);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.startError.find("execve"), std::string::npos) << r.startError;
  SandboxRequest empty = req;
  empty.argv.clear();
  EXPECT_FALSE(runSandboxed(empty).started);
}

TEST(RuntimeSandbox, TimeoutKillsTheWholeProcessGroup) {
  TempDir dir;
  SandboxRequest req = shell("echo $$ > leader; readlink /proc/self/ns/pid > ns; sleep 300 & echo $! > child; "
                             "sh -c 'sleep 300' & wait",
                             dir.path());
  req.limits.wall = 1s;
  const auto start = std::chrono::steady_clock::now();
  const SandboxResult r = runSandboxed(req);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_LT(took, 10s);
  // In a PID namespace of its own the pids it wrote are that namespace's: nothing may be left in it.
  if (const std::string ns = childNamespace(dir / "ns"); !ns.empty()) {
    EXPECT_TRUE(eventually([&] { return liveInNamespace(ns).empty(); }))
        << liveInNamespace(ns).size() << " processes survived in " << ns;
    return;
  }
  const pid_t leader = pidIn(dir / "leader"), child = pidIn(dir / "child");
  ASSERT_GT(leader, 0);
  ASSERT_GT(child, 0);
  EXPECT_TRUE(eventually([&] { return deadOrZombie(child); })) << "background child " << child << " survived";
  EXPECT_TRUE(eventually([&] { return liveProcesses(leader, -1).empty(); })) << "a process of the group survived";
}

TEST(RuntimeSandbox, OutputIsCappedToItsTail) {
  TempDir dir;
  SandboxRequest req = shell("head -c 3000000 /dev/zero | tr '\\0' x; echo; echo END", dir.path());
  req.limits.outputCapBytes = 1024;
  const SandboxResult r = runSandboxed(req);
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_TRUE(r.outputTruncated);
  EXPECT_EQ(r.stdoutTail.size(), 1024u);
  EXPECT_TRUE(r.stdoutTail.ends_with("\nEND\n"));
}

TEST(RuntimeSandbox, AnswerComesOnlyFromThePrivatePipe) {
  TempDir dir;
  const SandboxResult r = runSandboxed(shell("printf 'KBAUDIT-ANSWER fake' ; printf 'the answer' >&3", dir.path()));
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.answer, "the answer");
  EXPECT_EQ(r.stdoutTail, "KBAUDIT-ANSWER fake");

  // Another descriptor number, as the caller chooses it.
  SandboxRequest req = shell("printf 'on five' >&5", dir.path());
  req.answerFd = 5;
  EXPECT_EQ(runSandboxed(req).answer, "on five");

  // An answer over the cap is no answer at all.
  SandboxRequest big = shell("head -c 100000 /dev/zero >&3", dir.path());
  big.limits.answerCapBytes = 1000;
  EXPECT_TRUE(runSandboxed(big).answer.empty());
}

TEST(RuntimeSandbox, OnlyTheAnswerDescriptorIsInherited) {
  TempDir dir;
  const int leaked = ::open("/dev/null", O_RDONLY); // not close-on-exec
  ASSERT_GE(leaked, 0);
  const SandboxResult r = runSandboxed(shell("ls /proc/self/fd", dir.path()));
  ::close(leaked);
  ASSERT_TRUE(r.started) << r.startError;
  // 0, 1, 2, the answer pipe (3), and the descriptor ls opens to read the directory.
  std::set<std::string> fds;
  std::istringstream in(r.stdoutTail);
  for (std::string fd; in >> fd;)
    fds.insert(fd);
  EXPECT_LE(fds.size(), 5u) << r.stdoutTail;
  EXPECT_FALSE(fds.count(std::to_string(leaked)) && leaked > 4) << "fd " << leaked << " leaked: " << r.stdoutTail;
}

TEST(RuntimeSandbox, StdinIsDeliveredAndCannotBlockOrKillTheParent) {
  TempDir dir;
  SandboxRequest req = shell("read line; echo \"got $line\"", dir.path());
  req.stdinData = "nonce123\n";
  const SandboxResult r = runSandboxed(req);
  EXPECT_EQ(r.stdoutTail, "got nonce123\n");

  // Megabytes for a child that exits without reading: no SIGPIPE for kbaudit, no hang.
  SandboxRequest exits = shell("exit 3", dir.path());
  exits.stdinData.assign(4u << 20, 'x');
  const SandboxResult e = runSandboxed(exits);
  EXPECT_EQ(e.exitCode, 3);
  EXPECT_FALSE(e.timedOut);

  // ... and for one that never reads nor exits: the wall clock still rules.
  SandboxRequest stuck = shell("sleep 300", dir.path());
  stuck.stdinData.assign(4u << 20, 'x');
  stuck.limits.wall = 1s;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(runSandboxed(stuck).timedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST(RuntimeSandbox, EnvironmentIsExactlyTheRequestedOne) {
  TempDir dir;
  ::setenv("KBAUDIT_TEST_SECRET", "must-not-leak", 1);
  SandboxRequest req = shell("env", dir.path());
  req.env["KBAUDIT_VISIBLE"] = "yes";
  const SandboxResult r = runSandboxed(req);
  ::unsetenv("KBAUDIT_TEST_SECRET");
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_NE(r.stdoutTail.find("KBAUDIT_VISIBLE=yes"), std::string::npos) << r.stdoutTail;
  EXPECT_EQ(r.stdoutTail.find("must-not-leak"), std::string::npos) << r.stdoutTail;
  EXPECT_EQ(r.stdoutTail.find("HOME="), std::string::npos) << "HOME was not requested";
}

TEST(RuntimeSandbox, ChildRunsInItsWorkdirWithDefaultSignals) {
  TempDir dir;
  // kbaudit ignoring or blocking a signal must not carry over into the child.
  struct sigaction ignore {}, saved {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGTERM, &ignore, &saved);
  const SandboxResult r = runSandboxed(shell("pwd; grep -E '^Sig(Ign|Blk)' /proc/self/status", dir.path()));
  ::sigaction(SIGTERM, &saved, nullptr);
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.stdoutTail.substr(0, r.stdoutTail.find('\n')), fs::canonical(dir.path()).string());
  EXPECT_NE(r.stdoutTail.find("SigBlk:\t0000000000000000"), std::string::npos) << r.stdoutTail;
  EXPECT_NE(r.stdoutTail.find("SigIgn:\t0000000000000000"), std::string::npos) << r.stdoutTail;
}

TEST(RuntimeSandbox, AddressSpaceLimitStopsAMemoryHog) {
  REQUIRE_PYTHON();
  TempDir dir;
  SandboxRequest req;
  req.argv = {"/usr/bin/python3", "-I", "-c",
              "try:\n    b = bytearray(8 << 30)\nexcept MemoryError:\n    raise SystemExit(42)\n"};
  req.workdir = dir.path();
  req.env = {{"PATH", "/usr/bin:/bin"}};
  req.limits.addressSpaceBytes = 1ull << 30;
  const SandboxResult r = runSandboxed(req);
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.exitCode, 42) << r.stderrTail;
}

TEST(RuntimeSandbox, ForkBombIsContainedAndLeavesNothingBehind) {
  REQUIRE_PYTHON();
  TempDir dir;
  TestUid uid; // used only when the tests run as root
  if (::geteuid() == 0) {
    ASSERT_NE(uid.uid, 0u) << "no test uid could be claimed";
    ASSERT_EQ(::chown(dir.path().c_str(), uid.uid, uid.uid), 0);
  }
  SandboxRequest req;
  req.argv = {"/usr/bin/python3", "-I", "-c",
              "import os\nopen('leader', 'w').write(str(os.getpid()))\n"
              "open('ns', 'w').write(os.readlink('/proc/self/ns/pid'))\n"
              "while True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"};
  req.workdir = dir.path();
  req.env = {{"PATH", "/usr/bin:/bin"}};
  req.uid = uid.uid;
  req.limits.processes = 24;
  req.limits.wall = 3s;
  const auto start = std::chrono::steady_clock::now();
  const SandboxResult r = runSandboxed(req);
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_TRUE(r.timedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 15s);
  const pid_t leader = pidIn(dir / "leader");
  ASSERT_GT(leader, 0);
  if (const std::string ns = childNamespace(dir / "ns"); !ns.empty()) {
    EXPECT_TRUE(eventually([&] { return liveInNamespace(ns).empty(); }))
        << liveInNamespace(ns).size() << " fork-bomb processes survived in " << ns;
  }
  // As root the bomb ran as a uid of its own (in a namespace or not): none of its processes is left.
  const int sweptUid = ::geteuid() == 0 ? static_cast<int>(uid.uid) : -1;
  const pid_t group = childNamespace(dir / "ns").empty() ? leader : -1;
  EXPECT_TRUE(eventually([&] { return liveProcesses(group, sweptUid).empty(); }))
      << liveProcesses(group, sweptUid).size() << " fork-bomb processes survived";
}

TEST(RuntimeSandbox, RootDropsToTheGivenUidAndSweepsEscapees) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "needs root: only then does the sandbox switch to a uid of its own";
  TempDir dir;
  TestUid uid;
  ASSERT_NE(uid.uid, 0u) << "no test uid could be claimed";
  ASSERT_EQ(::chown(dir.path().c_str(), uid.uid, uid.uid), 0);
  // A child that leaves the process group (setsid) survives killpg; the uid sweep gets it.
  SandboxRequest req = shell("id -u; readlink /proc/self/ns/pid > ns; setsid sh -c 'echo $$ > escaped; exec sleep 300' "
                             "& sleep 0.3; echo done",
                             dir.path());
  req.uid = uid.uid;
  const SandboxResult r = runSandboxed(req);
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.stdoutTail, std::to_string(uid.uid) + "\ndone\n");
  bool noted = false;
  for (const std::string &note : r.isolation)
    noted |= note == "unprivileged uid " + std::to_string(uid.uid);
  EXPECT_TRUE(noted);
  const pid_t escaped = pidIn(dir / "escaped");
  ASSERT_GT(escaped, 0);
  if (const std::string ns = childNamespace(dir / "ns"); !ns.empty())
    EXPECT_TRUE(eventually([&] { return liveInNamespace(ns).empty(); })) << "a process survived in " << ns;
  else
    EXPECT_TRUE(eventually([&] { return deadOrZombie(escaped); })) << "the setsid escapee " << escaped << " survived";
  EXPECT_TRUE(eventually([&] { return liveProcesses(-1, static_cast<int>(uid.uid)).empty(); }))
      << "a process of uid " << uid.uid << " survived";
  // Root's files are out of its reach.
  SandboxRequest write = shell("echo x > /etc/kbaudit-sandbox-test 2>/dev/null && echo wrote || echo denied", dir.path());
  write.uid = uid.uid;
  EXPECT_EQ(runSandboxed(write).stdoutTail, "denied\n");
  std::error_code ec;
  fs::remove("/etc/kbaudit-sandbox-test", ec);
}

TEST(RuntimeSandbox, UidDropDoesNotWaitForKbauditsOtherThreads) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "needs root: only then does the sandbox switch to a uid of its own";
  // `audit --jobs N` starts probes from worker threads. A child made by clone(2) directly keeps
  // glibc's list of the parent's threads, and glibc's setuid() waits for each of them to follow:
  // the child must change its ids with the raw system calls, or it hangs before exec.
  std::atomic<bool> stop{false};
  std::thread busy([&] {
    while (!stop)
      std::this_thread::sleep_for(5ms);
  });
  TempDir dir;
  TestUid uid;
  ASSERT_NE(uid.uid, 0u) << "no test uid could be claimed";
  ASSERT_EQ(::chown(dir.path().c_str(), uid.uid, uid.uid), 0);
  SandboxRequest req = shell("id -u", dir.path());
  req.uid = uid.uid;
  req.limits.wall = 10s;
  const SandboxResult r = runSandboxed(req);
  stop = true;
  busy.join();
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_FALSE(r.timedOut) << "the child hung before exec";
  EXPECT_EQ(r.stdoutTail, std::to_string(uid.uid) + "\n");
}

TEST(RuntimeSandbox, NetworkNamespaceWhenTheKernelAllowsOne) {
  TempDir dir;
  const SandboxResult r = runSandboxed(shell("cat /proc/net/dev", dir.path()));
  ASSERT_TRUE(r.started) << r.startError;
  bool said = false;
  for (const std::string &note : r.isolation)
    said |= note.find("network") != std::string::npos;
  EXPECT_TRUE(said) << "the isolation notes must say whether the network is isolated";
  if (r.containment != "namespaces")
    GTEST_SKIP() << "this kernel or container allows no new namespaces (" << r.containment << ")";
  // Only the loopback device exists in a fresh network namespace.
  std::istringstream in(r.stdoutTail);
  int devices = 0;
  for (std::string line; std::getline(in, line);)
    devices += line.find(':') != std::string::npos;
  EXPECT_EQ(devices, 1) << r.stdoutTail;
  EXPECT_NE(r.stdoutTail.find("lo:"), std::string::npos);
}
