#include "kbaudit/semantic/process_limits.h"

#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/static_value.h"

#include <algorithm>
#include <string_view>

namespace kbaudit::semantic {
namespace {

// Limits a harness sets on time and memory: raising them lets the run outlast or outgrow them.
constexpr std::string_view kHarnessLimits[] = {"RLIMIT_CPU",  "RLIMIT_AS",    "RLIMIT_DATA",   "RLIMIT_RSS",
                                               "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_RTTIME", "RLIMIT_MEMLOCK"};
constexpr std::string_view kProcessControl[] = {"ptrace",          "prctl",           "seccomp",
                                                "seccomp_load",    "seccomp_init",    "seccomp_rule_add",
                                                "process_vm_writev", "process_vm_readv"};
// syscall numbers (x86-64) of ptrace, prctl and seccomp, for `libc.syscall(101, ...)`.
constexpr double kControlSyscalls[] = {101, 157, 317};

template <std::size_t N> bool among(const std::string_view (&set)[N], std::string_view s) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

} // namespace

std::optional<double> alarmSeconds(const py::PythonFacts &py, const py::Call &c) {
  const py::Argument *a = c.positionalArg(c.resolved == "signal.setitimer" ? 1 : 0);
  if (!a)
    return std::nullopt;
  return bindingOf(py, a->value).number;
}

bool ownAlarmBefore(const py::PythonFacts &py, const py::Call &c) {
  for (const py::Call &o : py.calls)
    if ((o.resolved == "signal.alarm" || o.resolved == "signal.setitimer") && o.function == c.function &&
        o.lines.begin < c.lines.begin && alarmSeconds(py, o).value_or(1.0) != 0.0)
      return true;
  return false;
}

std::optional<LimitChange> limitChange(const py::PythonFacts &py, const py::Call &c) {
  const bool prlimit = c.resolved == "resource.prlimit";
  const py::Argument *res = c.positionalArg(prlimit ? 1 : 0);
  const py::Argument *limits = c.positionalArg(prlimit ? 2 : 1);
  if (!res || !limits)
    return std::nullopt;
  LimitChange out;
  out.limit = std::string(pytext::lastSegment(bindingOf(py, res->value).resolved));
  out.resource = &res->value;
  for (const py::Expr &el : bindingOf(py, limits->value).elements)
    if (pytext::endsWith(el.resolved, "RLIM_INFINITY") || readsBackSetting(py, el, c.function, "", "resource.getrlimit"))
      out.raises = true;
  return out;
}

bool isHarnessLimit(std::string_view limit) { return among(kHarnessLimits, limit); }

bool controlsProcess(const py::PythonFacts &py, const py::Call &c) {
  // A view of the resolved name itself (a view of a substr() temporary would dangle).
  const std::string_view root = std::string_view(c.resolved).substr(0, c.resolved.find('.'));
  if ((root == "prctl" || root == "seccomp" || root == "pyseccomp" || root == "ptrace") && c.method != "get_name" &&
      c.method != "set_name")
    return true;
  if (!c.receiver.empty() && among(kProcessControl, c.method) && !py.findFunction(c.resolved))
    return true;
  if (c.method == "syscall" && !c.receiver.empty())
    if (const py::Argument *n = c.positionalArg(0))
      if (const py::Expr &v = bindingOf(py, n->value); v.number)
        return std::find(std::begin(kControlSyscalls), std::end(kControlSyscalls), *v.number) !=
               std::end(kControlSyscalls);
  return false;
}

} // namespace kbaudit::semantic
