// The state a torch.nn module registers, and what a same-named submodule leaves out by a
// constructor flag (module_state.h).

#include "kbaudit/semantic/module_state.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/random_draws.h"
#include "kbaudit/semantic/static_value.h"

#include <cctype>

#include <algorithm>
#include <map>
#include <optional>

namespace kbaudit::semantic {
namespace {

using pytext::lastSegment;
using pytext::startsWith;

/// A constructor flag that decides whether a torch.nn module registers some state.
struct StateFlag {
  std::string_view keyword;
  int position; ///< index among positional arguments
  bool byDefault;
  std::vector<std::string_view> state;
  bool parameters;
};

/// The state flags of the torch.nn classes whose state the references of kernel suites
/// carry, with their positions in the constructors' signatures.
const std::vector<StateFlag> *flagsOf(std::string_view cls) {
  static const std::map<std::string_view, std::vector<StateFlag>> table = {
      {"Linear", {{"bias", 2, true, {"bias"}, true}}},
      {"Bilinear", {{"bias", 3, true, {"bias"}, true}}},
      {"Conv1d", {{"bias", 7, true, {"bias"}, true}}},
      {"Conv2d", {{"bias", 7, true, {"bias"}, true}}},
      {"Conv3d", {{"bias", 7, true, {"bias"}, true}}},
      {"ConvTranspose1d", {{"bias", 7, true, {"bias"}, true}}},
      {"ConvTranspose2d", {{"bias", 7, true, {"bias"}, true}}},
      {"ConvTranspose3d", {{"bias", 7, true, {"bias"}, true}}},
      {"LayerNorm", {{"elementwise_affine", 2, true, {"weight", "bias"}, true}, {"bias", 3, true, {"bias"}, true}}},
      {"RMSNorm", {{"elementwise_affine", 2, true, {"weight"}, true}}},
      {"GroupNorm", {{"affine", 3, true, {"weight", "bias"}, true}}},
      {"BatchNorm1d",
       {{"affine", 3, true, {"weight", "bias"}, true},
        {"track_running_stats", 4, true, {"running_mean", "running_var"}, false}}},
      {"BatchNorm2d",
       {{"affine", 3, true, {"weight", "bias"}, true},
        {"track_running_stats", 4, true, {"running_mean", "running_var"}, false}}},
      {"BatchNorm3d",
       {{"affine", 3, true, {"weight", "bias"}, true},
        {"track_running_stats", 4, true, {"running_mean", "running_var"}, false}}},
      {"InstanceNorm1d",
       {{"affine", 3, false, {"weight", "bias"}, true},
        {"track_running_stats", 4, false, {"running_mean", "running_var"}, false}}},
      {"InstanceNorm2d",
       {{"affine", 3, false, {"weight", "bias"}, true},
        {"track_running_stats", 4, false, {"running_mean", "running_var"}, false}}},
      {"InstanceNorm3d",
       {{"affine", 3, false, {"weight", "bias"}, true},
        {"track_running_stats", 4, false, {"running_mean", "running_var"}, false}}},
  };
  const auto it = table.find(cls);
  return it == table.end() ? nullptr : &it->second;
}

/// `self.<name> = torch.nn.<Class>(...)` in `init`: name -> the constructor call.
std::map<std::string, const py::Call *> torchSubmodules(const py::PythonFacts &py, const std::string &init) {
  std::map<std::string, const py::Call *> out;
  for (const py::Assignment &a : py.assignments) {
    if (a.function != init || a.kind != py::Assignment::TargetKind::SelfAttribute ||
        a.value.kind != py::ExprKind::Call || !startsWith(a.value.resolved, "torch.nn."))
      continue;
    for (const py::Call &c : py.calls)
      if (c.function == init && c.resolved == a.value.resolved && a.value.lines.overlaps(c.lines) &&
          c.lines.begin == a.value.lines.begin)
        out[a.target.substr(5)] = &c;
  }
  return out;
}

/// The flag's value as the call passes it (or its default); nullopt when not static.
std::optional<bool> flagValue(const py::PythonFacts &py, const py::Call &c, const StateFlag &f) {
  const py::Argument *a = c.keywordArg(f.keyword);
  if (!a)
    a = c.positionalArg(static_cast<unsigned>(f.position));
  if (!a)
    return f.byDefault;
  return staticTruth(py, a->value);
}

/// Whether the calls on `lines` of `function` (or, for a name, on the lines that bind it
/// there) include a random or uninitialised factory; nullopt when the value cannot be traced.
std::optional<bool> randomIn(const py::PythonFacts &py, const std::string &function, const py::Expr &value) {
  std::vector<LineRange> ranges;
  if (value.kind == py::ExprKind::Call || value.kind == py::ExprKind::BinaryOp)
    ranges.push_back(value.lines);
  else if (value.kind == py::ExprKind::Name)
    for (const py::Assignment &a : py.assignments)
      if (a.function == function && a.kind == py::Assignment::TargetKind::Name && isName(value, a.target))
        ranges.push_back(a.value.lines);
  if (ranges.empty())
    return std::nullopt;
  for (const py::Call &c : py.calls)
    if (c.function == function)
      for (const LineRange &r : ranges)
        if (r.overlaps(c.lines) && isRandomFactory(c.resolved))
          return true;
  return false;
}

} // namespace

namespace {

bool isNormModule(std::string_view resolved) {
  if (!startsWith(resolved, "torch.nn."))
    return false;
  const std::string_view name = lastSegment(resolved);
  for (std::string_view c : {"LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
                             "SyncBatchNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"})
    if (name == c)
      return true;
  return false;
}

} // namespace

bool builtWithoutState(const py::PythonFacts &py, const std::string &init, const std::string &name) {
  const std::map<std::string, const py::Call *> modules = torchSubmodules(py, init);
  const auto it = modules.find(name);
  if (it == modules.end() || !isNormModule(it->second->resolved))
    return false;
  const std::vector<StateFlag> *flags = flagsOf(lastSegment(it->second->resolved));
  if (!flags)
    return false; // SyncBatchNorm: not in the table, so its state is assumed
  // A piece of state exists when every flag that governs it is on (LayerNorm's bias needs
  // both elementwise_affine and bias).
  std::map<std::string_view, bool> present;
  for (const StateFlag &f : *flags) {
    const std::optional<bool> on = flagValue(py, *it->second, f);
    for (std::string_view st : f.state) {
      auto [slot, fresh] = present.try_emplace(st, true);
      slot->second = slot->second && on != false;
    }
  }
  return std::none_of(present.begin(), present.end(), [](const auto &p) { return p.second; });
}

std::set<std::string> constantInitState(const py::PythonFacts &py, const std::string &init) {
  std::set<std::string> out;
  for (const py::Assignment &a : py.assignments) {
    if (a.function != init || a.kind != py::Assignment::TargetKind::SelfAttribute || a.value.kind != py::ExprKind::Call)
      continue;
    const bool parameter = lastSegment(a.value.resolved) == "Parameter";
    if (isNormModule(a.value.resolved) || (parameter && randomIn(py, init, a.value) == false))
      out.insert(a.target.substr(5));
  }
  return out;
}

bool isStatelessModule(std::string_view resolved) {
  if (!startsWith(resolved, "torch.nn."))
    return false;
  const std::string_view name = lastSegment(resolved);
  for (std::string_view c : {"Dropout",
                             "Dropout1d",
                             "Dropout2d",
                             "Dropout3d",
                             "AlphaDropout",
                             "FeatureAlphaDropout",
                             "Identity",
                             "Flatten",
                             "Unflatten",
                             "ReLU",
                             "ReLU6",
                             "GELU",
                             "SiLU",
                             "Sigmoid",
                             "Tanh",
                             "Hardtanh",
                             "LeakyReLU",
                             "ELU",
                             "SELU",
                             "CELU",
                             "Mish",
                             "Softplus",
                             "Softsign",
                             "Hardswish",
                             "Hardsigmoid",
                             "LogSigmoid",
                             "Tanhshrink",
                             "Threshold",
                             "GLU",
                             "Softmax",
                             "LogSoftmax",
                             "Softmin",
                             "Softmax2d",
                             "MaxPool1d",
                             "MaxPool2d",
                             "MaxPool3d",
                             "AvgPool1d",
                             "AvgPool2d",
                             "AvgPool3d",
                             "AdaptiveAvgPool1d",
                             "AdaptiveAvgPool2d",
                             "AdaptiveAvgPool3d",
                             "AdaptiveMaxPool1d",
                             "AdaptiveMaxPool2d",
                             "AdaptiveMaxPool3d",
                             "LPPool1d",
                             "LPPool2d",
                             "Upsample",
                             "UpsamplingNearest2d",
                             "UpsamplingBilinear2d",
                             "PixelShuffle",
                             "PixelUnshuffle",
                             "ChannelShuffle",
                             "Fold",
                             "Unfold",
                             "ZeroPad1d",
                             "ZeroPad2d",
                             "ZeroPad3d",
                             "ConstantPad1d",
                             "ConstantPad2d",
                             "ConstantPad3d",
                             "ReflectionPad1d",
                             "ReflectionPad2d",
                             "ReflectionPad3d",
                             "ReplicationPad1d",
                             "ReplicationPad2d",
                             "ReplicationPad3d",
                             "CosineSimilarity",
                             "PairwiseDistance"})
    if (name == c)
      return true;
  return false;
}

std::set<std::string> constantBuffers(const py::PythonFacts &py, const std::string &init) {
  std::set<std::string> out;
  for (const py::Call &c : py.calls) {
    if (c.function != init || c.receiver != "self" || c.method != "register_buffer")
      continue;
    const py::Argument *name = c.positionalArg(0);
    const py::Argument *value = c.positionalArg(1);
    if (!value)
      value = c.keywordArg("tensor");
    if (!name || !name->value.string || !value)
      continue;
    if (randomIn(py, init, value->value) == false)
      out.insert(name->value.string->value);
  }
  return out;
}

std::vector<DroppedModuleState> droppedModuleState(const py::PythonFacts &reference, const std::string &refInit,
                                                   const py::PythonFacts &solution, const std::string &solInit) {
  std::vector<DroppedModuleState> out;
  const auto refModules = torchSubmodules(reference, refInit);
  for (const auto &[name, sol] : torchSubmodules(solution, solInit)) {
    const auto ref = refModules.find(name);
    if (ref == refModules.end() || lastSegment(ref->second->resolved) != lastSegment(sol->resolved))
      continue;
    const std::vector<StateFlag> *flags = flagsOf(lastSegment(sol->resolved));
    if (!flags)
      continue;
    // One entry per module: `elementwise_affine=False` and `bias=False` may both drop `bias`.
    DroppedModuleState d{name, sol->callee, {}, {}, false, isNormModule(sol->resolved), sol->lines};
    for (const StateFlag &f : *flags) {
      const std::optional<bool> wanted = flagValue(reference, *ref->second, f);
      const std::optional<bool> has = flagValue(solution, *sol, f);
      if (wanted != true || has != false)
        continue;
      d.flag += (d.flag.empty() ? "" : ", ") + std::string(f.keyword) + "=False";
      d.parameters = d.parameters || f.parameters;
      for (std::string_view s : f.state)
        if (std::find(d.state.begin(), d.state.end(), name + "." + std::string(s)) == d.state.end())
          d.state.push_back(name + "." + std::string(s));
    }
    if (!d.flag.empty())
      out.push_back(std::move(d));
  }
  return out;
}

namespace {

/// Tensors a constructor registers that may hold drawn values: a parameterised torch.nn module's
/// weight and, when on, its bias; every `nn.Parameter` (however it is initialised) and
/// `register_parameter`; and, a few levels down, those of the file's own module classes it builds.
unsigned randomTensors(const py::PythonFacts &py, const std::string &init, int depth = 0) {
  unsigned n = 0;
  for (const auto &[name, call] : torchSubmodules(py, init)) {
    const std::vector<StateFlag> *flags = flagsOf(lastSegment(call->resolved));
    if (!flags || isNormModule(call->resolved))
      continue;
    n += 1;
    for (const StateFlag &f : *flags)
      if (f.keyword == "bias" && flagValue(py, *call, f) != false)
        n += 1;
  }
  for (const py::Assignment &a : py.assignments) {
    if (a.function != init || a.value.kind != py::ExprKind::Call)
      continue;
    if (a.kind == py::Assignment::TargetKind::SelfAttribute && lastSegment(a.value.resolved) == "Parameter")
      n += 1;
    else if (depth < 3 && py.findFunction(a.value.resolved + ".__init__"))
      n += randomTensors(py, a.value.resolved + ".__init__", depth + 1);
  }
  for (const py::Call &c : py.calls)
    if (c.function == init && c.method == "register_parameter")
      n += 1;
  return n;
}

/// The torch.nn submodules of `init` and of the file's own module classes it builds, by
/// attribute name.
std::map<std::string, const py::Call *> allSubmodules(const py::PythonFacts &py, const std::string &init, int depth = 0) {
  std::map<std::string, const py::Call *> out = torchSubmodules(py, init);
  if (depth < 3)
    for (const py::Assignment &a : py.assignments)
      if (a.function == init && a.value.kind == py::ExprKind::Call && py.findFunction(a.value.resolved + ".__init__"))
        for (auto &[name, call] : allSubmodules(py, a.value.resolved + ".__init__", depth + 1))
          out.emplace(name, call);
  return out;
}

/// The solution's carriers of `state` ("conv.bias"): itself, and the self attributes its
/// constructor assigns from a value that reads it (`self.b = nn.Parameter(self.conv.bias.clone())`).
std::vector<std::string> carriersOf(const py::PythonFacts &py, const std::string &init, const std::string &state) {
  std::vector<std::string> out{"self." + state};
  for (std::size_t i = 0; i < out.size() && i < 16; ++i)
    for (const py::Assignment &a : py.assignments)
      if (a.function == init && a.kind == py::Assignment::TargetKind::SelfAttribute &&
          std::find(a.value.names.begin(), a.value.names.end(), out[i]) != a.value.names.end() &&
          std::find(out.begin(), out.end(), a.target) == out.end())
        out.push_back(a.target);
  return out;
}

} // namespace

std::vector<UnappliedState> unappliedRandomState(const py::PythonFacts &reference, const std::string &refInit,
                                                 const py::PythonFacts &solution, const std::string &solInit,
                                                 LineRange solutionClass,
                                                 const std::function<bool(const std::string &, bool)> &reads) {
  std::vector<UnappliedState> out;
  const auto solModules = allSubmodules(solution, solInit);
  bool missing = false;
  UnappliedState firstMissing;
  for (const auto &[name, ref] : torchSubmodules(reference, refInit)) {
    const std::vector<StateFlag> *flags = flagsOf(lastSegment(ref->resolved));
    if (!flags || isNormModule(ref->resolved))
      continue; // a norm's state is constant when fresh: RUB008's other reading
    const StateFlag *bias = nullptr;
    for (const StateFlag &f : *flags)
      if (f.keyword == "bias")
        bias = &f;
    if (!bias || flagValue(reference, *ref, *bias) != true)
      continue;
    UnappliedState u;
    u.state = name + ".bias";
    u.cls = ref->callee;
    const auto sol = solModules.find(name);
    if (sol == solModules.end() || lastSegment(sol->second->resolved) != lastSegment(ref->resolved)) {
      if (!missing) {
        missing = true;
        u.how = UnappliedState::How::NoCounterpart;
        u.lines = LineRange{solutionClass.begin, solutionClass.begin};
        firstMissing = u;
      }
      continue;
    }
    u.lines = sol->second->lines;
    if (flagValue(solution, *sol->second, *bias) == false) {
      u.how = UnappliedState::How::BuiltWithout;
      out.push_back(std::move(u));
      continue;
    }
    // The module applies its bias when called, or when something reads the bias (or a copy).
    // Only a solution that uses the layer's weight without them leaves the bias out; one that
    // reads nothing of the layer dropped a layer whose output the reference may not use either.
    bool applied = reads("self." + name, true);
    for (const std::string &carrier : carriersOf(solution, solInit, u.state))
      applied = applied || reads(carrier, false);
    const bool weightUsed = reads("self." + name + ".weight", false);
    if (!applied && weightUsed) {
      u.how = UnappliedState::How::NeverRead;
      out.push_back(std::move(u));
    }
  }
  // Left-out modules: only when the solution draws fewer random tensors than the reference, so
  // that no state of its own can stand for the bias.
  if (missing && randomTensors(solution, solInit) < randomTensors(reference, refInit))
    out.push_back(std::move(firstMissing));
  return out;
}

std::set<std::string> registeredState(const py::PythonFacts &facts, const std::string &init) {
  std::set<std::string> out;
  for (const py::Assignment &a : facts.assignments) {
    if (a.function != init || a.kind != py::Assignment::TargetKind::SelfAttribute || a.value.kind != py::ExprKind::Call)
      continue;
    const std::string_view callee = a.value.resolved;
    const std::string_view last = lastSegment(callee);
    const bool parameter = last == "Parameter";
    // A stateless module (dropout, an activation, pooling) puts nothing in the state dict.
    const bool submodule = startsWith(callee, "torch.nn.") && !last.empty() &&
                           std::isupper(static_cast<unsigned char>(last[0])) && !isStatelessModule(callee);
    if (parameter || (submodule && !builtWithoutState(facts, init, a.target.substr(5))))
      out.insert(a.target.substr(5));
  }
  for (const py::Call &c : facts.calls)
    if (c.function == init && c.receiver == "self" &&
        (c.method == "register_buffer" || c.method == "register_parameter"))
      if (const py::Argument *name = c.positionalArg(0); name && name->value.string && name->value.string->complete) {
        // Non-persistent buffers are not in the state dict.
        const py::Argument *persistent = c.keywordArg("persistent");
        if (!persistent)
          persistent = c.positionalArg(2);
        if (persistent && staticTruth(facts, persistent->value) == false)
          continue;
        out.insert(name->value.string->value);
      }
  return out;
}

std::set<std::string> anyStateName(const py::PythonFacts &facts) {
  std::set<std::string> out;
  for (const py::Assignment &a : facts.assignments)
    if (a.kind == py::Assignment::TargetKind::SelfAttribute)
      out.insert(a.target.substr(5));
    else if (a.op == "setattr" || a.kind == py::Assignment::TargetKind::Attribute)
      out.insert(std::string(lastSegment(a.target)));
  for (const py::Call &c : facts.calls)
    if (c.method == "register_buffer" || c.method == "register_parameter" || c.method == "add_module" ||
        c.method == "register_module")
      if (const py::Argument *name = c.positionalArg(0); name && name->value.string)
        out.insert(name->value.string->value);
  return out;
}

} // namespace kbaudit::semantic
