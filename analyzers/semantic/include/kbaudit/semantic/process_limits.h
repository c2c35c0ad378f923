#pragma once

// The process-level controls a harness bounds a run with, for RUB013 (process-control
// tampering): the alarm a call sets or cancels, the resource limit a call changes and whether
// it raises it, and calls that control the process itself (ptrace, prctl, seccomp).

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>

namespace kbaudit::semantic {

/// The seconds `signal.alarm(s)` / `signal.setitimer(which, s)` sets (through a name bound to
/// a number); nullopt when not a constant.
std::optional<double> alarmSeconds(const py::PythonFacts &py, const py::Call &c);

/// Before `c` in its function, the solution itself set a non-zero alarm (so cancelling it
/// cancels its own, not the harness's).
bool ownAlarmBefore(const py::PythonFacts &py, const py::Call &c);

/// What `resource.setrlimit(res, limits)` / `resource.prlimit(pid, res, limits)` changes:
/// the limit's name (`RLIMIT_CPU`, "" when not a constant), and whether the new value is the
/// hard limit or infinity (`RLIM_INFINITY`, or a value read back from `getrlimit`).
struct LimitChange {
  std::string limit;
  const py::Expr *resource = nullptr; ///< the argument as written, for messages
  bool raises = false;
};
std::optional<LimitChange> limitChange(const py::PythonFacts &py, const py::Call &c);

/// A limit a harness bounds a run with (CPU time, memory, processes, file size, ...).
bool isHarnessLimit(std::string_view limit);

/// `c` controls the process itself: a prctl/seccomp/ptrace binding, a libc function of that
/// family called through a loaded library, or `libc.syscall(n)` with ptrace's, prctl's or
/// seccomp's x86-64 number.
bool controlsProcess(const py::PythonFacts &py, const py::Call &c);

} // namespace kbaudit::semantic
