// Process-level controls a harness bounds a run with (semantic/process_limits.h): RUB013 asks
// what alarm a call sets, which limit it changes and whether it raises it, and whether a call
// controls the process itself.

#include "kbaudit/semantic/process_limits.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::callsTo;
using py::testing::src;

TEST(SemanticProcessLimits, AlarmsAndLimits) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import resource
import signal
LIMIT = 30
def own():
    signal.alarm(LIMIT)
    signal.alarm(0)
def harness():
    signal.alarm(0)
soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
resource.setrlimit(resource.RLIMIT_CPU)
)PY")));
  const std::vector<const py::Call *> alarms = callsTo(f.python, "signal.alarm");
  ASSERT_EQ(alarms.size(), 3u);
  EXPECT_EQ(semantic::alarmSeconds(f.python, *alarms[0]), std::optional<double>(30.0)); // through LIMIT
  EXPECT_EQ(semantic::alarmSeconds(f.python, *alarms[1]), std::optional<double>(0.0));
  EXPECT_TRUE(semantic::ownAlarmBefore(f.python, *alarms[1]));
  EXPECT_FALSE(semantic::ownAlarmBefore(f.python, *alarms[2])); // the harness's alarm
  EXPECT_FALSE(semantic::ownAlarmBefore(f.python, *alarms[0]));

  const std::vector<const py::Call *> sets = callsTo(f.python, "resource.setrlimit");
  ASSERT_EQ(sets.size(), 4u);
  const std::optional<semantic::LimitChange> cpu = semantic::limitChange(f.python, *sets[0]);
  ASSERT_TRUE(cpu.has_value());
  EXPECT_EQ(cpu->limit, "RLIMIT_CPU");
  EXPECT_TRUE(cpu->raises); // to the hard limit read back from getrlimit
  const std::optional<semantic::LimitChange> as = semantic::limitChange(f.python, *sets[1]);
  ASSERT_TRUE(as.has_value());
  EXPECT_TRUE(as->raises); // infinity
  const std::optional<semantic::LimitChange> files = semantic::limitChange(f.python, *sets[2]);
  ASSERT_TRUE(files.has_value());
  EXPECT_FALSE(files->raises);
  EXPECT_FALSE(semantic::limitChange(f.python, *sets[3]).has_value()); // no limits given
  EXPECT_TRUE(semantic::isHarnessLimit("RLIMIT_CPU"));
  EXPECT_FALSE(semantic::isHarnessLimit("RLIMIT_NOFILE"));
}

TEST(SemanticProcessLimits, ProcessControl) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import ctypes
import prctl
libc = ctypes.CDLL("libc.so.6")
libc.prctl(38, 1, 0, 0, 0)
libc.syscall(157, 38, 1)
libc.syscall(39)
libc.getpid()
prctl.set_name("worker")
prctl.set_no_new_privs(1)
)PY")));
  std::vector<bool> controls;
  for (const py::Call &c : f.python.calls)
    if (c.lines.begin >= 4)
      controls.push_back(semantic::controlsProcess(f.python, c));
  EXPECT_EQ(controls, (std::vector<bool>{true, true, false, false, false, true}));
}

} // namespace
} // namespace kbaudit
