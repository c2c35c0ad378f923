#include "kbaudit/semantic/deferred_work.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/tensor_subclass.h"

#include <algorithm>
#include <string_view>

namespace kbaudit::semantic {
namespace {

// What a grader does with a result after the timer stops: copy it to the host, index it,
// convert it, print it. A subclass that overrides these can compute there.
constexpr std::string_view kReadBacks[] = {"cpu",   "cuda",   "numpy", "tolist",     "item",      "__getitem__",
                                           "to",    "float",  "double", "half",      "contiguous", "clone",
                                           "__array__", "__repr__", "__format__", "__float__", "detach", "data_ptr"};

// Registrations whose callback runs after the call that registered it returns.
struct LaterHook {
  std::string_view callee;
  unsigned callbackArg; ///< position of the callback
};
constexpr LaterHook kHooks[] = {
    {"atexit.register", 0},
    {"weakref.finalize", 1},
    {"torch.nn.modules.module.register_module_forward_hook", 0},
    {"torch.nn.modules.module.register_module_forward_pre_hook", 0},
    {"torch.nn.modules.module.register_module_full_backward_hook", 0},
    {"sys.setprofile", 0},
    {"sys.settrace", 0},
    {"threading.setprofile", 0},
    {"threading.settrace", 0},
};
constexpr std::string_view kModuleHooks[] = {"register_forward_hook", "register_forward_pre_hook"};
constexpr std::string_view kEnqueue[] = {"append", "extend", "appendleft", "insert", "put", "put_nowait"};

template <std::size_t N> bool among(const std::string_view (&set)[N], std::string_view s) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

bool hasMethod(const py::Class &c, std::string_view m) {
  return std::find(c.methods.begin(), c.methods.end(), m) != c.methods.end();
}

/// The local function the callback at `position` names, when it launches work.
std::string workingCallback(const ForwardReach &reach, const py::Call &c, unsigned position) {
  const py::Argument *a = c.positionalArg(position);
  const std::string fn = a ? reach.resolveCallable(a->value, c.function) : std::string();
  return !fn.empty() && reach.doesWork(fn) ? fn : std::string();
}

/// The container outlives the call: a `self` attribute, or a name bound at module scope and
/// not rebound in the calling function.
bool persists(const ForwardReach &reach, const py::Call &c) {
  if (c.receiver.rfind("self.", 0) == 0)
    return true;
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
bool inEntry(const ForwardReach &reach, const py::Call &c, const std::string &name) {
  const auto &entries = reach.entries();
  if (std::find(entries.begin(), entries.end(), c.function) == entries.end())
    return false;
  for (const py::Assignment &a : reach.python().assignments)
    if (a.function == c.function && a.target == name && a.lines.begin < c.lines.begin)
      return false;
  return true;
}

} // namespace

std::vector<std::string> workingReadBacks(const ForwardReach &reach, const py::Class &cls) {
  std::vector<std::string> out;
  for (std::string_view m : kReadBacks)
    if (hasMethod(cls, m) && reach.doesWork(cls.name + "." + std::string(m)))
      out.emplace_back(m);
  return out;
}

bool instantiatedOnForward(const ForwardReach &reach, const py::Class &cls) {
  for (const py::Call &c : reach.python().calls)
    if (reach.reached(c.function) && instantiates(reach.python(), c, cls))
      return true;
  return false;
}

std::vector<LaterCallback> laterCallbacks(const ForwardReach &reach, const py::Call &c) {
  std::vector<LaterCallback> out;
  for (const LaterHook &h : kHooks)
    if (c.resolved == h.callee)
      if (std::string fn = workingCallback(reach, c, h.callbackArg); !fn.empty())
        out.push_back({fn, false});
  if (among(kModuleHooks, c.method))
    if (std::string fn = workingCallback(reach, c, 0); !fn.empty())
      out.push_back({fn, true});
  return out;
}

std::string inputKeptBeyondCall(const ForwardReach &reach, const py::Call &c) {
  if (!reach.reached(c.function) || c.receiver.empty() || !among(kEnqueue, c.method) || !persists(reach, c))
    return {};
  for (const py::Argument &a : c.args) {
    const std::string name(rootName(a.value));
    if (a.value.kind == py::ExprKind::Name && reach.inputNames().count(name) && inEntry(reach, c, name))
      return name;
  }
  return {};
}

bool capturesCudaGraphs(const py::PythonFacts &py) {
  for (const py::Call &c : py.calls)
    if (c.resolved == "torch.cuda.CUDAGraph" || c.resolved == "torch.cuda.graph")
      return true;
  return false;
}

} // namespace kbaudit::semantic
