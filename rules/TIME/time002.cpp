// TIME002 deferred-computation: forward returns before the work is done (a lazy tensor
// subclass that computes when read) or leaves the work to code that runs after the timed
// call (a finalizer, an exit handler, a global hook, inputs queued for a later call).

#include "all_checks.h"
#include "semantic_names.h"
#include "time_common.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/tensor_subclass.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

namespace kbaudit::rules {
namespace {

using timing::ForwardReach;

bool hasMethod(const py::Class &c, std::string_view m) {
  return std::find(c.methods.begin(), c.methods.end(), m) != c.methods.end();
}

// What a grader does with a result after the timer stops: copy it to the host, index it,
// convert it, print it. A subclass that overrides these can compute there.
constexpr std::string_view kReadBacks[] = {"cpu",   "cuda",   "numpy", "tolist",     "item",      "__getitem__",
                                           "to",    "float",  "double", "half",      "contiguous", "clone",
                                           "__array__", "__repr__", "__format__", "__float__", "detach", "data_ptr"};

// Registrations whose callback runs after the call that registered it returns.
struct LaterHook {
  std::string_view callee;
  unsigned callbackArg; ///< position of the callback
  bool global;          ///< runs outside this module's own call (decisive); else review
};
constexpr LaterHook kHooks[] = {
    {"atexit.register", 0, true},
    {"weakref.finalize", 1, true},
    {"torch.nn.modules.module.register_module_forward_hook", 0, true},
    {"torch.nn.modules.module.register_module_forward_pre_hook", 0, true},
    {"torch.nn.modules.module.register_module_full_backward_hook", 0, true},
    {"sys.setprofile", 0, true},
    {"sys.settrace", 0, true},
    {"threading.setprofile", 0, true},
    {"threading.settrace", 0, true},
};
constexpr std::string_view kModuleHooks[] = {"register_forward_hook", "register_forward_pre_hook"};
constexpr std::string_view kEnqueue[] = {"append", "extend", "appendleft", "insert", "put", "put_nowait"};

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
  /// Read-back methods of `cls` that launch work: the grader's read runs them.
  static std::vector<std::string> workingReadBacks(const ForwardReach &reach, const py::Class &cls) {
    std::vector<std::string> out;
    for (std::string_view m : kReadBacks)
      if (hasMethod(cls, m) && reach.doesWork(cls.name + "." + std::string(m)))
        out.emplace_back(m);
    return out;
  }

  // A tensor subclass the harness receives (forward returns an instance, or rebinds the class
  // of an argument it writes into): reading or comparing the result runs the subclass's code
  // after the timed call. Instances used inside forward and never handed back defer nothing.
  static void checkLazySubclasses(const ForwardReach &reach, FindingSink &sink) {
    const auto escapes = semantic::escapingSubclassInstances(
        reach.python(), reach.entries(), [&](const std::string &fn) { return reach.reached(fn); });
    for (const semantic::SubclassEscape &e : escapes) {
      const py::Class &cls = *e.cls;
      const bool intercepts = semantic::interceptsTorchOps(cls);
      const std::vector<std::string> reads = workingReadBacks(reach, cls);
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

  /// The call creates an instance of `cls` (constructor, as_subclass, _make_subclass).
  static bool instantiates(const ForwardReach &reach, const py::Call &c, const py::Class &cls) {
    return semantic::instantiates(reach.python(), c, cls);
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
      bool madeByForward = false;
      for (const py::Call &c : reach.python().calls)
        if (reach.reached(c.function) && instantiates(reach, c, cls))
          madeByForward = true;
      if (!f)
        continue;
      sink.report(LineRange{f->lines.begin, f->lines.begin},
                  {{"detail", "`" + del + "` launches work when the object is destroyed"}},
                  madeByForward ? "forward creates the object" : "no instance created on forward's path",
                  madeByForward ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    }
  }

  static void checkHooks(const ForwardReach &reach, FindingSink &sink) {
    for (const py::Call &c : reach.python().calls) {
      for (const LaterHook &h : kHooks) {
        if (c.resolved != h.callee)
          continue;
        const py::Argument *a = c.positionalArg(h.callbackArg);
        const std::string fn = a ? reach.resolveCallable(a->value, c.function) : std::string();
        if (fn.empty() || !reach.doesWork(fn))
          continue;
        sink.report(c.lines, {{"detail", "`" + c.callee + "` registers `" + fn + "`, which launches work, to run later"}});
      }
      if (std::find(std::begin(kModuleHooks), std::end(kModuleHooks), c.method) == std::end(kModuleHooks))
        continue;
      const py::Argument *a = c.positionalArg(0);
      const std::string fn = a ? reach.resolveCallable(a->value, c.function) : std::string();
      if (fn.empty() || !reach.doesWork(fn))
        continue;
      // A module hook runs inside the module's call, so it is timed; it only hides the work
      // from a reader of forward.
      sink.report(c.lines, {{"detail", "`" + c.callee + "` registers `" + fn + "`, which launches work outside forward"}},
                  "module hooks run inside the module call", Confidence::Low);
    }
  }

  // forward puts its own inputs into a container that outlives the call: the work on them
  // is batched into a later call.
  static void checkQueuedInputs(const ForwardReach &reach, FindingSink &sink) {
    const std::set<std::string> &inputs = reach.inputNames();
    for (const py::Call &c : reach.python().calls) {
      if (!reach.reached(c.function) || c.receiver.empty() ||
          std::find(std::begin(kEnqueue), std::end(kEnqueue), c.method) == std::end(kEnqueue))
        continue;
      if (!persists(reach, c))
        continue;
      for (const py::Argument &a : c.args) {
        const std::string name(semantic::rootName(a.value));
        if (a.value.kind != py::ExprKind::Name || !inputs.count(name) || !inForward(reach, c, name))
          continue;
        const bool graphKeepAlive = keepsGraphInputsAlive(reach);
        sink.report(c.lines, {{"detail", "forward stores its input `" + name + "` in `" + c.receiver +
                                             "`, which outlives the call"}},
                    graphKeepAlive ? "the solution also captures CUDA graphs keyed on input addresses, which may "
                                     "only keep the inputs alive"
                                   : "work on stored inputs can run in a later call",
                    graphKeepAlive ? std::optional<Confidence>(Confidence::Low) : std::nullopt);
        break;
      }
    }
  }

  static bool persists(const ForwardReach &reach, const py::Call &c) {
    if (c.receiver.rfind("self.", 0) == 0)
      return true;
    // A module-level container (a name bound at module scope and not rebound locally).
    bool module = false;
    for (const py::Assignment &a : reach.python().assignments)
      if (a.kind == py::Assignment::TargetKind::Name && a.target == c.receiver) {
        if (a.function == c.function)
          return false;
        module = module || a.function.empty();
      }
    return module;
  }

  /// The argument is the entry point's own parameter, not a local of the same name.
  static bool inForward(const ForwardReach &reach, const py::Call &c, const std::string &name) {
    const auto &entries = reach.entries();
    if (std::find(entries.begin(), entries.end(), c.function) == entries.end())
      return false;
    for (const py::Assignment &a : reach.python().assignments)
      if (a.function == c.function && a.target == name && a.lines.begin < c.lines.begin)
        return false;
    return true;
  }

  static bool keepsGraphInputsAlive(const ForwardReach &reach) {
    for (const py::Call &c : reach.python().calls)
      if (c.resolved == "torch.cuda.CUDAGraph" || c.resolved == "torch.cuda.graph")
        return true;
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeTime002() { return std::make_unique<Time002>(); }

} // namespace kbaudit::rules
