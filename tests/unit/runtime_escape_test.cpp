// Sandbox reach (issue 23), through the probe's own sandboxed worker: a solution connecting to
// Unix sockets a process on the host listens on (a filesystem path and an abstract name)
// delivers nothing, and its writes to /tmp and /dev/shm land nowhere on the host; under the
// strongest containment this machine allows and under the Landlock fallback. Needs torch in the
// probes' interpreter; a containment this kernel lacks is skipped, saying so.

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/runtime/probe.h"

#include "host_listener.h"
#include "runtime_support.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace kbaudit;
using kbaudit::test::HostListener;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

const fs::path kRuntime = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "runtime";

/// A copy of a solution with string constants replaced (names of this test run's own).
fs::path copyWith(const TempDir &dir, const std::string &solution,
                  const std::vector<std::pair<std::string, std::string>> &replacements) {
  std::string text = readFile(kRuntime / "solutions" / solution / "solution.py");
  for (const auto &[from, to] : replacements) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from << " not in " << solution;
    if (at != std::string::npos)
      text.replace(at, from.size(), to);
  }
  const fs::path out = dir / solution / "solution.py";
  writeFile(out, text);
  return out;
}

std::string describe(const runtime::RuntimeReport &r) {
  std::ostringstream s;
  s << "outcome " << r.outcome << " (" << r.reason << ")\n";
  for (const std::string &i : r.isolation)
    s << "  isolation: " << i << "\n";
  for (const runtime::RuntimeEvent &e : r.events)
    s << "  event " << e.kind << ": " << e.detail << "\n";
  return s.str();
}

bool containedAs(const runtime::RuntimeReport &r, runtime::Containment mode) {
  const std::string want = mode == runtime::Containment::Landlock ? "Landlock ABI" : "own mount, PID, IPC, network";
  for (const std::string &i : r.isolation)
    if (i.find(want) == 0)
      return true;
  return false;
}

class Escape : public ::testing::TestWithParam<runtime::Containment> {
protected:
  runtime::RuntimeReport probe(const fs::path &solution) {
    runtime::ProbeOptions options;
    options.device = "cpu";
    options.python = kbaudit::test::probePython();
    options.seeds = {0};
    options.limits.wall = 60s;
    options.containment = GetParam();
    return runtime::runProbes(solution, problems::loadProblem(kRuntime / "problems" / "tiny_softmax"), options);
  }
};

#define SKIP_UNLESS_CONTAINED(r)                                                                                   \
  do {                                                                                                             \
    if (!containedAs(r, GetParam()))                                                                               \
      GTEST_SKIP() << "this machine does not offer the "                                                           \
                   << (GetParam() == runtime::Containment::Landlock ? "Landlock" : "namespace")                    \
                   << " containment this test is about\n"                                                          \
                   << describe(r);                                                                                 \
  } while (false)

} // namespace

TEST_P(Escape, UnixSocketsOfTheHostReceiveNothing) {
  REQUIRE_TORCH();
  HostListener path(HostListener::Kind::UnixPath), abstract(HostListener::Kind::UnixAbstract);
  ASSERT_TRUE(path.listening() && abstract.listening()) << "the host listeners did not start";
  TempDir dir;
  const fs::path solution = copyWith(dir, "hostile_unix_socket",
                                     {{"/tmp/kbaudit-hostile.sock", path.address()},
                                      {"kbaudit-hostile-abstract", abstract.address()}});
  const runtime::RuntimeReport r = probe(solution);
  std::this_thread::sleep_for(200ms);
  SKIP_UNLESS_CONTAINED(r);
  EXPECT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_EQ(path.received(), "") << "the solution delivered data to " << path.address() << "\n" << describe(r);
  EXPECT_EQ(abstract.received(), "") << describe(r);
  EXPECT_EQ(path.connections() + abstract.connections(), 0) << describe(r);
}

TEST_P(Escape, WritesToTmpAndDevShmStayInsideTheSandbox) {
  REQUIRE_TORCH();
  std::random_device rd;
  const std::string tag = std::to_string(::getpid()) + "-" + std::to_string(rd());
  const std::string tmpMark = "/tmp/kbaudit-escape-tmp-" + tag, shmMark = "/dev/shm/kbaudit-escape-shm-" + tag;
  TempDir dir;
  const fs::path solution = copyWith(dir, "hostile_shared_tmp",
                                     {{"/tmp/kbaudit-hostile-shared-tmp.txt", tmpMark},
                                      {"/dev/shm/kbaudit-hostile-shared-shm.txt", shmMark}});
  const runtime::RuntimeReport r = probe(solution);
  const bool tmpLeaked = fs::exists(tmpMark), shmLeaked = fs::exists(shmMark);
  std::error_code ec;
  fs::remove(tmpMark, ec);
  fs::remove(shmMark, ec);
  SKIP_UNLESS_CONTAINED(r);
  EXPECT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_FALSE(tmpLeaked) << "the solution wrote " << tmpMark << " on the host\n" << describe(r);
  EXPECT_FALSE(shmLeaked) << "the solution wrote " << shmMark << " on the host\n" << describe(r);
}

INSTANTIATE_TEST_SUITE_P(Runtime, Escape,
                         ::testing::Values(runtime::Containment::Strongest, runtime::Containment::Landlock),
                         [](const auto &p) {
                           return std::string(p.param == runtime::Containment::Landlock ? "Landlock" : "Strongest");
                         });
