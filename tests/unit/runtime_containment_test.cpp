// What a sandboxed child can reach (docs/security.md), run through runSandboxed with /bin/sh and
// /usr/bin/python3 (no torch needed), under the strongest containment this machine allows and
// under the Landlock fallback forced: no Unix socket (path or abstract) or TCP port a host
// process listens on, no host /tmp or /dev/shm, nothing of the filesystem outside its view, no
// socket family that leaves a namespace (AF_VSOCK reaches a VM's host), no host process. Each
// mode a kernel lacks is skipped, saying so; the forced weakest mode must still start and say
// what it does not contain.

#include "kbaudit/runtime/sandbox.h"

#include "host_listener.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <chrono>
#include <grp.h>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

using namespace kbaudit::runtime;
using kbaudit::test::HostListener;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

std::string unique(const std::string &stem) {
  std::random_device rd;
  return stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(rd());
}

std::string notes(const SandboxResult &r) {
  std::string out = "containment: " + r.containment + "\n";
  for (const std::string &n : r.isolation)
    out += "  " + n + "\n";
  return out + "stdout: " + r.stdoutTail + "\nstderr: " + r.stderrTail;
}

const char *modeName(Containment c) { return c == Containment::Strongest ? "Strongest" : "Landlock"; }

class Contained : public ::testing::TestWithParam<Containment> {
protected:
  SandboxRequest request(const std::vector<std::string> &argv) {
    SandboxRequest r;
    r.argv = argv;
    r.workdir = dir_.path();
    r.env = {{"PATH", "/usr/bin:/bin"}};
    r.limits.wall = 20s;
    r.containment = GetParam();
    return r;
  }
  SandboxResult run(const SandboxRequest &r) {
    SandboxResult result = runSandboxed(r);
    EXPECT_TRUE(result.started) << result.startError;
    return result;
  }
  /// Skips where this kernel does not offer the mode the test is about.
  bool unavailable(const SandboxResult &r) {
    const std::string want = GetParam() == Containment::Landlock ? "landlock" : "namespaces";
    return r.containment != want;
  }
  TempDir dir_;
};

#define SKIP_IF_UNAVAILABLE(r)                                                                                     \
  do {                                                                                                             \
    if (unavailable(r))                                                                                            \
      GTEST_SKIP() << modeName(GetParam()) << " containment is not available here (ran under '" << (r).containment \
                   << "')\n"                                                                                       \
                   << notes(r);                                                                                    \
  } while (false)

#define REQUIRE_PYTHON3()                                                                                          \
  do {                                                                                                             \
    if (!fs::exists("/usr/bin/python3"))                                                                           \
      GTEST_SKIP() << "no /usr/bin/python3 on this machine";                                                       \
  } while (false)

} // namespace

TEST_P(Contained, UnixSocketsAndPortsOfTheHostReceiveNothing) {
  REQUIRE_PYTHON3();
  HostListener path(HostListener::Kind::UnixPath), abstract(HostListener::Kind::UnixAbstract),
      tcp(HostListener::Kind::Tcp);
  ASSERT_TRUE(path.listening() && abstract.listening() && tcp.listening()) << "the host listeners did not start";
  const std::string script = "import socket\n"
                             "for family, address in ((socket.AF_UNIX, '" + path.address() + "'),\n"
                             "                        (socket.AF_UNIX, '\\0" + abstract.address() + "'),\n"
                             "                        (socket.AF_INET, ('127.0.0.1', " + tcp.address() + "))):\n"
                             "    try:\n"
                             "        s = socket.socket(family, socket.SOCK_STREAM)\n"
                             "        s.settimeout(2)\n"
                             "        s.connect(address)\n"
                             "        s.sendall(b'escaped')\n"
                             "        print('connected', address)\n"
                             "    except OSError as e:\n"
                             "        print('refused', address, e)\n";
  const SandboxResult r = run(request({"/usr/bin/python3", "-I", "-c", script}));
  SKIP_IF_UNAVAILABLE(r);
  std::this_thread::sleep_for(200ms); // anything sent is read by now
  EXPECT_EQ(path.received(), "") << notes(r);
  EXPECT_EQ(abstract.received(), "") << notes(r);
  EXPECT_EQ(tcp.received(), "") << notes(r);
  EXPECT_EQ(path.connections() + abstract.connections() + tcp.connections(), 0) << notes(r);
  EXPECT_EQ(r.stdoutTail.find("connected"), std::string::npos) << notes(r);
  EXPECT_EQ(r.exitCode, 0) << notes(r);
}

TEST_P(Contained, NoSocketFamilyLeavesTheSandbox) {
  REQUIRE_PYTHON3();
  // AF_VSOCK (40) reaches a virtual machine's host whatever namespace the child is in;
  // AF_PACKET (17) the host's interfaces. A socketpair reaches nobody and stays allowed.
  const SandboxResult r = run(request({"/usr/bin/python3", "-I", "-c",
                                       "import socket\n"
                                       "for family in (40, 17):\n"
                                       "    try:\n"
                                       "        socket.socket(family, socket.SOCK_STREAM if family == 40 else "
                                       "socket.SOCK_RAW)\n"
                                       "        print('created', family)\n"
                                       "    except OSError as e:\n"
                                       "        print('refused', family, e.errno)\n"
                                       "a, b = socket.socketpair()\n"
                                       "a.sendall(b'x')\n"
                                       "print('pair', b.recv(1))\n"}));
  SKIP_IF_UNAVAILABLE(r);
  EXPECT_EQ(r.stdoutTail.find("created"), std::string::npos) << notes(r);
  EXPECT_NE(r.stdoutTail.find("refused 40"), std::string::npos) << notes(r);
  EXPECT_NE(r.stdoutTail.find("pair b'x'"), std::string::npos) << notes(r);
}

TEST_P(Contained, HostTmpAndDevShmAreOutOfReach) {
  const std::string tmpMark = "/tmp/" + unique("kbaudit-contained-tmp"),
                    shmMark = "/dev/shm/" + unique("kbaudit-contained-shm"),
                    hostSecret = "/tmp/" + unique("kbaudit-host-secret");
  writeFile(hostSecret, "the host's\n");
  const SandboxResult r =
      run(request({"/bin/sh", "-c", "echo x > " + tmpMark + "; echo x > " + shmMark + "; cat " + hostSecret +
                                        " 2>/dev/null || echo unreadable; ls /tmp | grep -c kbaudit-host-secret"}));
  const bool tmpLeaked = fs::exists(tmpMark), shmLeaked = fs::exists(shmMark);
  std::error_code ec;
  fs::remove(tmpMark, ec);
  fs::remove(shmMark, ec);
  fs::remove(hostSecret, ec);
  SKIP_IF_UNAVAILABLE(r);
  EXPECT_FALSE(tmpLeaked) << "the child wrote " << tmpMark << " on the host\n" << notes(r);
  EXPECT_FALSE(shmLeaked) << "the child wrote " << shmMark << " on the host\n" << notes(r);
  EXPECT_EQ(r.stdoutTail.find("the host's"), std::string::npos) << notes(r);
  EXPECT_NE(r.stdoutTail.find("unreadable"), std::string::npos) << notes(r);
}

TEST_P(Contained, OnlyItsViewIsVisibleAndOnlyItsScratchWritable) {
  TempDir outside, readOnly;
  writeFile(outside / "secret.txt", "outside the view\n");
  writeFile(readOnly / "given.txt", "given\n");
  fs::create_directories(dir_ / "scratch");
  SandboxRequest req = request(
      {"/bin/sh", "-c",
       "cat " + (outside / "secret.txt").string() + " 2>/dev/null || echo hidden; cat " +
           (readOnly / "given.txt").string() + "; echo y > " + (readOnly / "given.txt").string() +
           " 2>/dev/null && echo wrote-readonly; echo z > " + (dir_ / "scratch" / "new.txt").string() +
           " && echo wrote-scratch; echo w > /usr/kbaudit-contained 2>/dev/null && echo wrote-usr; ls " +
           fs::path(KBAUDIT_SOURCE_DIR).string() + " 2>/dev/null | head -1 || true"});
  req.view = FilesystemView{{readOnly.path(), dir_.path()}, {dir_ / "scratch"}};
  const SandboxResult r = run(req);
  SKIP_IF_UNAVAILABLE(r);
  EXPECT_NE(r.stdoutTail.find("hidden"), std::string::npos) << notes(r);
  EXPECT_EQ(r.stdoutTail.find("outside the view"), std::string::npos) << notes(r);
  EXPECT_NE(r.stdoutTail.find("given"), std::string::npos) << notes(r);
  EXPECT_EQ(r.stdoutTail.find("wrote-readonly"), std::string::npos) << notes(r);
  EXPECT_EQ(readFile(readOnly / "given.txt"), "given\n");
  EXPECT_NE(r.stdoutTail.find("wrote-scratch"), std::string::npos) << notes(r);
  EXPECT_EQ(readFile(dir_ / "scratch" / "new.txt"), "z\n");
  EXPECT_EQ(r.stdoutTail.find("wrote-usr"), std::string::npos) << notes(r);
  // The project's checkout (with its tests and other problems) is not in the view.
  EXPECT_EQ(r.stdoutTail.find("CMakeLists.txt"), std::string::npos) << notes(r);
  std::error_code ec;
  fs::remove("/usr/kbaudit-contained", ec);
}

TEST_P(Contained, KbauditItselfCannotBeSignalled) {
  // The test process is kbaudit's stand-in: a child of the same uid (when not root) must not be
  // able to signal it (kill -0 checks permission without sending anything).
  const SandboxResult r = run(request({"/bin/sh", "-c",
                                       "kill -0 " + std::to_string(::getpid()) + " 2>/dev/null && echo reachable || "
                                       "echo unreachable"}));
  SKIP_IF_UNAVAILABLE(r);
  if (GetParam() == Containment::Landlock && r.stdoutTail.find("reachable") == 0)
    for (const std::string &n : r.isolation)
      if (n.find("signals to other processes of this uid are not scoped") != std::string::npos)
        GTEST_SKIP() << "this kernel's Landlock (ABI < 6) does not scope signals";
  EXPECT_EQ(r.stdoutTail, "unreachable\n") << notes(r);
}

INSTANTIATE_TEST_SUITE_P(Sandbox, Contained, ::testing::Values(Containment::Strongest, Containment::Landlock),
                         [](const auto &p) { return std::string(modeName(p.param)); });

TEST(SandboxContainment, NamespacesHideTheHostsProcesses) {
  TempDir dir;
  SandboxRequest r;
  r.argv = {"/bin/sh", "-c", "ls /proc | grep -c '^[0-9]'"};
  r.workdir = dir.path();
  r.env = {{"PATH", "/usr/bin:/bin"}};
  const SandboxResult result = runSandboxed(r);
  ASSERT_TRUE(result.started) << result.startError;
  if (result.containment != "namespaces")
    GTEST_SKIP() << "no private namespaces here:\n" << notes(result);
  // Its init, the shell, ls and grep: a handful, never the host's hundreds.
  EXPECT_LE(std::atoi(result.stdoutTail.c_str()), 6) << notes(result);
}

TEST(SandboxContainment, TheWeakestModeStillRunsAndSaysWhatItDoesNotContain) {
  TempDir dir;
  SandboxRequest r;
  r.argv = {"/bin/sh", "-c", "echo ok"};
  r.workdir = dir.path();
  r.env = {{"PATH", "/usr/bin:/bin"}};
  r.containment = Containment::SeccompOnly;
  const SandboxResult result = runSandboxed(r);
  ASSERT_TRUE(result.started) << result.startError;
  EXPECT_EQ(result.stdoutTail, "ok\n");
  EXPECT_EQ(result.containment, "seccomp only");
  bool said = false;
  for (const std::string &n : result.isolation)
    said |= n.find("no filesystem containment") != std::string::npos;
  EXPECT_TRUE(said) << notes(result);
}

TEST(SandboxContainment, WithoutRootTheViewIsBuiltInAUserNamespace) {
  // The suite runs as root here (and in CI); kbaudit run by an ordinary user takes the user
  // namespace path, which the kernel treats differently (locked mounts, no capabilities after
  // exec). A forked copy of this test drops to `nobody` and runs the sandbox from there.
  if (::geteuid() != 0)
    GTEST_SKIP() << "not root: every other sandbox test already runs without root";
  TempDir dir;
  ASSERT_EQ(::chown(dir.path().c_str(), 65534, 65534), 0);
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(out[0]);
    if (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 || ::setresuid(65534, 65534, 65534) != 0)
      ::_exit(2);
    SandboxRequest r;
    r.argv = {"/bin/sh", "-c", "id -u; echo x > /tmp/inside && cat /tmp/inside; touch /usr/kbaudit-nobody 2>&1 || true"};
    r.workdir = dir.path();
    r.env = {{"PATH", "/usr/bin:/bin"}};
    const SandboxResult result = runSandboxed(r);
    const std::string text = result.containment + "\n" + notes(result) + "\n" + result.startError;
    (void)!::write(out[1], text.data(), text.size());
    ::_exit(result.started ? 0 : 1);
  }
  ::close(out[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(n));
  ::close(out[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the sandbox did not start as nobody:\n" << text;
  if (text.rfind("namespaces\n", 0) != 0) {
    // Degrading is right only where the kernel refuses what the view needs: util-linux's
    // unshare, as the same user, says whether it does.
    if (kbaudit::test::runCommand("setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urmpf --mount-proc true "
                                  ">/dev/null 2>&1") != 0)
      GTEST_SKIP() << "unprivileged user namespaces with a mount and PID namespace are refused here; it degraded "
                      "to:\n" << text;
    FAIL() << "`unshare -Urmpf --mount-proc` works for nobody here, but the sandbox could not build its view in a "
              "user namespace:\n" << text;
  }
  EXPECT_NE(text.find("in a user namespace"), std::string::npos) << text;
  EXPECT_NE(text.find("stdout: 65534\nx\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Read-only file system"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists("/usr/kbaudit-nobody"));
}
