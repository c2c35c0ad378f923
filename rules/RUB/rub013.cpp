// RUB013 process-control-tampering: the solution takes control of the process the grader runs
// in: the signals, timers and resource limits the harness bounds a run with, or the process
// itself through ptrace/prctl/seccomp, or the harness's parent process.

#include "all_checks.h"
#include "rub_process_site.h"
#include "semantic_names.h"

#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/process_limits.h"
#include "kbaudit/semantic/process_values.h"
#include "kbaudit/semantic/signal_handlers.h"

#include <algorithm>

namespace kbaudit::rules {
namespace {

using namespace pytext;

std::string joined(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

class Rub013 final : public Check {
public:
  std::string_view id() const override { return "RUB013"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const py::PythonFacts &py = ctx.facts.python;
    const rub::ProcessSites sites(ctx.facts);
    for (const py::Call &c : py.calls) {
      if (c.resolved == "signal.signal")
        handler(py, sites, c, sink);
      else if (c.resolved == "signal.alarm" || c.resolved == "signal.setitimer")
        alarm(py, sites, c, sink);
      else if (c.resolved == "signal.pthread_sigmask")
        sigmask(py, sites, c, sink);
      else if (c.resolved == "os.kill" || c.resolved == "os.killpg")
        kill(py, sites, c, sink);
      else if (c.resolved == "resource.setrlimit" || c.resolved == "resource.prlimit")
        rlimit(py, sites, c, sink);
      else if (c.resolved == "faulthandler.register")
        faultRegister(py, sites, c, sink);
      else
        processControl(py, sites, c, sink);
    }
  }

private:
  static void handler(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c,
                      FindingSink &sink) {
    const py::Argument *sig = c.positionalArg(0);
    const py::Argument *h = c.positionalArg(1);
    if (!sig || !h)
      return;
    const std::string name = semantic::harnessSignal(py, sig->value);
    if (name.empty())
      return;
    const py::Expr &v = h->value;
    const std::string_view last = lastSegment(v.resolved);
    if (last == "SIG_DFL" || v.resolved == "signal.default_int_handler" || semantic::restoresHandler(py, v, c.function))
      return; // the default or a saved handler put back
    if (last == "SIG_IGN") {
      sites.report(sink, c.function, c.lines, "`" + name + "` is ignored: the harness can no longer stop the run with it",
                   "", true);
      return;
    }
    const std::optional<bool> swallows = semantic::handlerSwallows(py, sites.graded(), v, c);
    if (swallows == true) {
      sites.report(sink, c.function, c.lines,
                   "`" + name + "` gets a handler (`" + semantic::quote(v) + "`) that returns without raising or exiting", "", true);
      return;
    }
    sites.report(sink, c.function, c.lines, "`" + name + "` gets the solution's own handler (`" + semantic::quote(v) + "`)",
                 swallows == false ? "the handler raises or exits, as an own timeout does, but it replaces the harness's"
                                   : "what the handler does is not known statically",
                 false);
  }

  static void alarm(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c, FindingSink &sink) {
    const std::optional<double> s = semantic::alarmSeconds(py, c);
    if (s && *s == 0.0) {
      const bool ownAlarm = semantic::ownAlarmBefore(py, c);
      sites.report(sink, c.function, c.lines,
                   "`" + c.callee + "` cancels the pending alarm" +
                       std::string(ownAlarm ? "" : ", which the solution never set: the harness's time limit"),
                   ownAlarm ? "cancels the solution's own earlier alarm, which had already replaced any the harness set" : "",
                   !ownAlarm);
      return;
    }
    sites.report(sink, c.function, c.lines, "`" + c.callee + "` sets the process's alarm",
                 "replaces any alarm the harness set; an own timeout looks the same", false);
  }

  static void sigmask(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c,
                      FindingSink &sink) {
    const py::Argument *how = c.positionalArg(0);
    const py::Argument *mask = c.positionalArg(1);
    if (!how || !mask || lastSegment(how->value.resolved) == "SIG_UNBLOCK")
      return;
    const std::vector<std::string> blocked = semantic::harnessSignalsIn(py, mask->value);
    const bool all = mask->value.resolved == "signal.valid_signals";
    if (blocked.empty() && !all)
      return;
    sites.report(sink, c.function, c.lines,
                 "`signal.pthread_sigmask` blocks " + (all ? std::string("every signal") : joined(blocked)) +
                     ": the harness's stop signals stay pending",
                 "", true);
  }

  static void kill(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c, FindingSink &sink) {
    const py::Argument *pid = c.positionalArg(0);
    if (!pid)
      return;
    const semantic::ProcessTarget t =
        c.resolved == "os.killpg" ? semantic::ProcessTarget::Group : semantic::processTargetOf(py, pid->value, c.function);
    if (t != semantic::ProcessTarget::Parent && t != semantic::ProcessTarget::Group)
      return;
    sites.report(sink, c.function, c.lines,
                 "`" + c.callee + "` signals " +
                     (t == semantic::ProcessTarget::Parent ? "the parent process (the harness)"
                                                           : "the whole process group, the harness included"),
                 "", true);
  }

  static void rlimit(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c, FindingSink &sink) {
    const std::optional<semantic::LimitChange> change = semantic::limitChange(py, c);
    if (!change || change->limit == "RLIMIT_CORE")
      return; // no core dumps: changes nothing the harness measures
    const std::string &limit = change->limit;
    const bool raises = change->raises;
    const bool harness = semantic::isHarnessLimit(limit);
    sites.report(sink, c.function, c.lines,
                 "`" + c.callee + "` sets `" + (limit.empty() ? semantic::quote(*change->resource) : limit) + "`" +
                     (raises ? " to the hard limit or infinity" : ""),
                 harness && raises ? "" : harness ? "the new value is not known to be higher than the harness's"
                                                  : "a limit the harness does not bound a run with",
                 harness && raises);
  }

  static void faultRegister(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c,
                            FindingSink &sink) {
    const py::Argument *sig = c.positionalArg(0);
    const std::string name = sig ? semantic::harnessSignal(py, sig->value) : std::string();
    if (name.empty())
      return;
    const py::Argument *chain = c.keywordArg("chain");
    const bool chains = chain && semantic::staticTruth(py, chain->value) == true;
    sites.report(sink, c.function, c.lines,
                 "`faulthandler.register` takes over `" + name + "`" +
                     (chains ? "" : ": a traceback dump replaces what the signal did"),
                 chains ? "chains to the previous handler afterwards" : "", !chains);
  }

  static void processControl(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c,
                             FindingSink &sink) {
    if (!semantic::controlsProcess(py, c))
      return;
    sites.report(sink, c.function, c.lines,
                 "`" + c.callee + "` controls the process itself (ptrace, prctl or seccomp), below the harness", "",
                 true);
  }
};

} // namespace

std::unique_ptr<Check> makeRub013() { return std::make_unique<Rub013>(); }

} // namespace kbaudit::rules
