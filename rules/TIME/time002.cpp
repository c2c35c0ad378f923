// TIME002 deferred-computation: forward returns before the work is done (a lazy tensor
// subclass that computes when read) or leaves the work to code that runs after the timed
// call (a finalizer, an exit handler, a global hook, inputs queued for a later call).

#include "all_checks.h"
#include "time_common.h"

#include "kbaudit/semantic/deferred_work.h"
#include "kbaudit/semantic/tensor_subclass.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

namespace kbaudit::rules {
namespace {

using timing::ForwardReach;

bool hasMethod(const py::Class &c, std::string_view m) {
  return std::find(c.methods.begin(), c.methods.end(), m) != c.methods.end();
}

class Time002 final : public timing::TimingCheck {
public:
  std::string_view id() const override { return "TIME002"; }

protected:
  void check(const CheckContext &, const ForwardReach &reach, FindingSink &sink) const override {
    checkLazySubclasses(reach, sink);
    checkFinalizers(reach, sink);
    checkHooks(reach, sink);
    checkQueuedInputs(reach, sink);
  }

private:
  // A tensor subclass the harness receives (forward returns an instance, or rebinds the class
  // of an argument it writes into): reading or comparing the result runs the subclass's code
  // after the timed call. Instances used inside forward and never handed back defer nothing.
  static void checkLazySubclasses(const ForwardReach &reach, FindingSink &sink) {
    const auto escapes = semantic::escapingSubclassInstances(
        reach.python(), reach.entries(), [&](const std::string &fn) { return reach.reached(fn); });
    for (const semantic::SubclassEscape &e : escapes) {
      const py::Class &cls = *e.cls;
      const bool intercepts = semantic::interceptsTorchOps(cls);
      const std::vector<std::string> reads = semantic::workingReadBacks(reach, cls);
      std::string detail = (e.rebindsArgument ? "forward rebinds its argument's class to tensor subclass `"
                                              : "forward returns an instance of tensor subclass `") +
                           cls.name + "`";
      std::string evidence;
      if (intercepts) {
        detail += " that intercepts every operation on it";
        evidence = "the subclass overrides __torch_function__/__torch_dispatch__";
      } else if (!reads.empty()) {
        std::string list;
        for (const std::string &r : reads)
          list += (list.empty() ? "" : ", ") + r;
        detail += " whose read-back methods launch work";
        evidence = "overridden read-back methods that launch work: " + list;
      } else {
        evidence = "a plain tensor subclass; it defers nothing unless it computes on access";
      }
      sink.report(e.lines, {{"detail", detail}}, evidence,
                  intercepts || !reads.empty() ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    }
  }

  // A class whose destructor launches work: the work happens when the object dies, after
  // forward has returned.
  static void checkFinalizers(const ForwardReach &reach, FindingSink &sink) {
    for (const py::Class &cls : reach.python().classes) {
      if (!hasMethod(cls, "__del__"))
        continue;
      const std::string del = cls.name + ".__del__";
      if (!reach.doesWork(del))
        continue;
      const py::Function *f = reach.python().findFunction(del);
      const bool madeByForward = semantic::instantiatedOnForward(reach, cls);
      if (!f)
        continue;
      sink.report(LineRange{f->lines.begin, f->lines.begin},
                  {{"detail", "`" + del + "` launches work when the object is destroyed"}},
                  madeByForward ? "forward creates the object" : "no instance created on forward's path",
                  madeByForward ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    }
  }

  static void checkHooks(const ForwardReach &reach, FindingSink &sink) {
    for (const py::Call &c : reach.python().calls)
      for (const semantic::LaterCallback &h : semantic::laterCallbacks(reach, c)) {
        if (!h.moduleHook) {
          sink.report(c.lines, {{"detail", "`" + c.callee + "` registers `" + h.function + "`, which launches work, to run later"}});
          continue;
        }
        // A module hook runs inside the module's call, so it is timed; it only hides the work
        // from a reader of forward.
        sink.report(c.lines, {{"detail", "`" + c.callee + "` registers `" + h.function + "`, which launches work outside forward"}},
                    "module hooks run inside the module call", Confidence::Low);
      }
  }

  // forward puts its own inputs into a container that outlives the call: the work on them
  // is batched into a later call.
  static void checkQueuedInputs(const ForwardReach &reach, FindingSink &sink) {
    for (const py::Call &c : reach.python().calls) {
      const std::string name = semantic::inputKeptBeyondCall(reach, c);
      if (name.empty())
        continue;
      const bool graphKeepAlive = semantic::capturesCudaGraphs(reach.python());
      sink.report(c.lines, {{"detail", "forward stores its input `" + name + "` in `" + c.receiver +
                                           "`, which outlives the call"}},
                  graphKeepAlive ? "the solution also captures CUDA graphs keyed on input addresses, which may "
                                   "only keep the inputs alive"
                                 : "work on stored inputs can run in a later call",
                  graphKeepAlive ? std::optional<Confidence>(Confidence::Low) : std::nullopt);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeTime002() { return std::make_unique<Time002>(); }

} // namespace kbaudit::rules
