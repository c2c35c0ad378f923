// TIME002 deferred-computation: forward returns before the work is done (a lazy tensor
// subclass that computes when read) or leaves the work to code that runs after the timed
// call (a finalizer, an exit handler, a global hook, inputs queued for a later call).

#include "all_checks.h"
#include "semantic_names.h"
#include "time_common.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

using timing::PyIndex;

bool hasMethod(const py::Class &c, std::string_view m) {
  return std::find(c.methods.begin(), c.methods.end(), m) != c.methods.end();
}

bool isTensorSubclass(const py::Class &c) {
  const bool tensorBase = std::any_of(c.bases.begin(), c.bases.end(), [](const std::string &b) {
    return b == "torch.Tensor" || b == "torch._tensor.Tensor";
  });
  return tensorBase || hasMethod(c, "__torch_function__") || hasMethod(c, "__torch_dispatch__");
}

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
  void check(const CheckContext &, const PyIndex &index, FindingSink &sink) const override {
    checkLazySubclasses(index, sink);
    checkFinalizers(index, sink);
    checkHooks(index, sink);
    checkQueuedInputs(index, sink);
  }

private:
  /// The call creates an instance of `cls` (constructor, as_subclass, _make_subclass).
  static bool instantiates(const py::Call &c, const std::string &cls) {
    if (c.resolved == cls || c.callee == cls || c.resolved == cls + ".__new__")
      return true;
    if (c.method == "as_subclass" || c.method == "_make_subclass" || c.method == "_make_wrapper_subclass")
      for (const py::Argument &a : c.args)
        if (a.value.text == cls)
          return true;
    return false;
  }

  static void checkLazySubclasses(const PyIndex &index, FindingSink &sink) {
    for (const py::Class &cls : index.python().classes) {
      if (!isTensorSubclass(cls))
        continue;
      const bool intercepts = hasMethod(cls, "__torch_function__") || hasMethod(cls, "__torch_dispatch__");
      for (const py::Call &c : index.python().calls) {
        // Instances made inside the class's own methods are its machinery, not forward's result.
        if (!index.reached(c.function) || pytext::classOf(c.function) == cls.name || !instantiates(c, cls.name))
          continue;
        sink.report(c.lines,
                    {{"detail", "forward builds an instance of tensor subclass `" + cls.name + "`" +
                                    (intercepts ? " that intercepts every operation on it" : "")}},
                    intercepts ? "the subclass overrides __torch_function__/__torch_dispatch__"
                               : "a plain tensor subclass; it defers nothing unless it computes on access",
                    intercepts ? std::nullopt : std::optional<Confidence>(Confidence::Low));
      }
    }
  }

  // A class whose destructor launches work: the work happens when the object dies, after
  // forward has returned.
  static void checkFinalizers(const PyIndex &index, FindingSink &sink) {
    for (const py::Class &cls : index.python().classes) {
      if (!hasMethod(cls, "__del__"))
        continue;
      const std::string del = cls.name + ".__del__";
      if (!index.doesWork(del))
        continue;
      const py::Function *f = index.python().findFunction(del);
      bool madeByForward = false;
      for (const py::Call &c : index.python().calls)
        if (index.reached(c.function) && instantiates(c, cls.name))
          madeByForward = true;
      if (!f)
        continue;
      sink.report(LineRange{f->lines.begin, f->lines.begin},
                  {{"detail", "`" + del + "` launches work when the object is destroyed"}},
                  madeByForward ? "forward creates the object" : "no instance created on forward's path",
                  madeByForward ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    }
  }

  static void checkHooks(const PyIndex &index, FindingSink &sink) {
    for (const py::Call &c : index.python().calls) {
      for (const LaterHook &h : kHooks) {
        if (c.resolved != h.callee)
          continue;
        const py::Argument *a = c.positionalArg(h.callbackArg);
        const std::string fn = a ? index.resolveCallable(a->value, c.function) : std::string();
        if (fn.empty() || !index.doesWork(fn))
          continue;
        sink.report(c.lines, {{"detail", "`" + c.callee + "` registers `" + fn + "`, which launches work, to run later"}});
      }
      if (std::find(std::begin(kModuleHooks), std::end(kModuleHooks), c.method) == std::end(kModuleHooks))
        continue;
      const py::Argument *a = c.positionalArg(0);
      const std::string fn = a ? index.resolveCallable(a->value, c.function) : std::string();
      if (fn.empty() || !index.doesWork(fn))
        continue;
      // A module hook runs inside the module's call, so it is timed; it only hides the work
      // from a reader of forward.
      sink.report(c.lines, {{"detail", "`" + c.callee + "` registers `" + fn + "`, which launches work outside forward"}},
                  "module hooks run inside the module call", Confidence::Low);
    }
  }

  // forward puts its own inputs into a container that outlives the call: the work on them
  // is batched into a later call.
  static void checkQueuedInputs(const PyIndex &index, FindingSink &sink) {
    const std::set<std::string> &inputs = index.inputNames();
    for (const py::Call &c : index.python().calls) {
      if (!index.reached(c.function) || c.receiver.empty() ||
          std::find(std::begin(kEnqueue), std::end(kEnqueue), c.method) == std::end(kEnqueue))
        continue;
      if (!persists(index, c))
        continue;
      for (const py::Argument &a : c.args) {
        if (!inputs.count(a.value.text) || !inForward(index, c, a.value.text))
          continue;
        const bool graphKeepAlive = keepsGraphInputsAlive(index);
        sink.report(c.lines, {{"detail", "forward stores its input `" + a.value.text + "` in `" + c.receiver +
                                             "`, which outlives the call"}},
                    graphKeepAlive ? "the solution also captures CUDA graphs keyed on input addresses, which may "
                                     "only keep the inputs alive"
                                   : "work on stored inputs can run in a later call",
                    graphKeepAlive ? std::optional<Confidence>(Confidence::Low) : std::nullopt);
        break;
      }
    }
  }

  static bool persists(const PyIndex &index, const py::Call &c) {
    if (c.receiver.rfind("self.", 0) == 0)
      return true;
    // A module-level container (a name bound at module scope and not rebound locally).
    bool module = false;
    for (const py::Assignment &a : index.python().assignments)
      if (a.kind == py::Assignment::TargetKind::Name && a.target == c.receiver) {
        if (a.function == c.function)
          return false;
        module = module || a.function.empty();
      }
    return module;
  }

  /// The argument is the entry point's own parameter, not a local of the same name.
  static bool inForward(const PyIndex &index, const py::Call &c, const std::string &name) {
    const auto &entries = index.entries();
    if (std::find(entries.begin(), entries.end(), c.function) == entries.end())
      return false;
    for (const py::Assignment &a : index.python().assignments)
      if (a.function == c.function && a.target == name && a.lines.begin < c.lines.begin)
        return false;
    return true;
  }

  static bool keepsGraphInputsAlive(const PyIndex &index) {
    for (const py::Call &c : index.python().calls)
      if (c.resolved == "torch.cuda.CUDAGraph" || c.resolved == "torch.cuda.graph")
        return true;
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeTime002() { return std::make_unique<Time002>(); }

} // namespace kbaudit::rules
