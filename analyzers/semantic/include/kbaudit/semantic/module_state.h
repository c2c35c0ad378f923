#pragma once

// The state a torch.nn module registers (its state-dict names), for RUB008's reading of a
// lenient load. And a torch.nn submodule the solution builds under the
// reference's name and class, but with a constructor flag that leaves out state the
// reference's module has (`nn.LayerNorm(d, elementwise_affine=False)`,
// `nn.BatchNorm2d(c, affine=False)`, `track_running_stats=False`, `bias=False`). The names
// match, so a check on names sees nothing, yet `load_state_dict(strict=False)` drops the
// reference's `ln.weight`/`bn.running_mean` without a word.

#include "kbaudit/python/facts.h"

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

struct DroppedModuleState {
  std::string name;               ///< the submodule's attribute ("ln")
  std::string cls;                ///< its class as written in the solution ("nn.LayerNorm")
  std::string flag;               ///< "elementwise_affine=False"
  std::vector<std::string> state; ///< what is dropped: "ln.weight", "ln.bias"
  /// The dropped state scales or shifts the output (affine parameters, a bias); running
  /// statistics only matter when the grader runs the model in eval mode.
  bool parameters = true;
  /// The dropped state is constant when freshly initialised (a normalisation module's affine
  /// parameters and statistics), unlike a Linear or convolution bias, which is random.
  bool constantInit = false;
  LineRange lines; ///< the solution's constructor call
};

/// A torch.nn class (resolved, "torch.nn.Dropout") that registers no parameters and no
/// buffers: dropout, activations, pooling, reshaping, softmax. A submodule of such a class
/// puts nothing in the state dict, so leaving it out drops nothing.
bool isStatelessModule(std::string_view resolved);

/// The torch.nn normalisation submodule `self.<name>` of `init` is built with every state flag
/// off (`nn.InstanceNorm2d(c)`, whose affine and running statistics are off by default;
/// `nn.LayerNorm(d, elementwise_affine=False)`): it registers nothing, so leaving it out drops
/// nothing. False when a flag is not static.
bool builtWithoutState(const py::PythonFacts &facts, const std::string &init, const std::string &name);

/// Names of the buffers `init` registers (`self.register_buffer("mask", ...)`) whose value
/// is computed from constants and the constructor's arguments alone (a causal mask, a
/// rotary table): no random or uninitialised factory in it. A solution that rebuilds such a
/// buffer computes with the same values the lenient load would have copied.
std::set<std::string> constantBuffers(const py::PythonFacts &facts, const std::string &init);

/// Names of the state `init` registers whose initial value is a constant: torch.nn
/// normalisation submodules (affine weight 1, bias 0, running mean 0, variance 1) and
/// parameters made from constants alone (`nn.Parameter(torch.ones(d))`). When both models are
/// built fresh from the same seed, a solution that leaves such state out computes exactly what
/// the reference computes with it: the check cannot see the difference until the state changes.
std::set<std::string> constantInitState(const py::PythonFacts &facts, const std::string &init);

/// Submodules of `solInit` (the solution's model constructor) that drop state the same-named
/// submodule of `refInit` (the reference's) has. Flags kbaudit cannot resolve statically are
/// left alone.
std::vector<DroppedModuleState> droppedModuleState(const py::PythonFacts &reference, const std::string &refInit,
                                                   const py::PythonFacts &solution, const std::string &solInit);

/// Random state of the reference (a Linear's or convolution's bias, drawn after the weight
/// under the shared seed) whose value has no way into what the solution computes. Under
/// same-seed construction a solution that leaves it out matches only while the tolerance hides
/// it (a small bias after an average).
struct UnappliedState {
  enum class How {
    BuiltWithout,  ///< the same-named module is built with bias=False
    NeverRead,     ///< the same-named module keeps it, but nothing the graded call runs reads it
    NoCounterpart, ///< no same-named module, and fewer random tensors than the reference draws
  };
  How how = How::NeverRead;
  std::string state; ///< "conv.bias"
  std::string cls;   ///< the reference module's class as written ("nn.Conv2d")
  LineRange lines;   ///< the solution's constructor call, or its model class's first line
};

/// `reads(name, whole)`: the solution's graded path reads `name` (a dotted self attribute): with
/// `whole`, only as a whole (called, or passed on as it is; `self.conv.weight` is not a read of
/// `self.conv`), else in any value. The constructor's copies of the state are followed here.
std::vector<UnappliedState> unappliedRandomState(const py::PythonFacts &reference, const std::string &refInit,
                                                 const py::PythonFacts &solution, const std::string &solInit,
                                                 LineRange solutionClass,
                                                 const std::function<bool(const std::string &, bool)> &reads);

/// Names under which `init` (a module's __init__) registers state: `self.w = nn.Parameter(...)`,
/// `self.register_buffer("w", ...)` (persistent ones only), `self.lin = nn.Linear(...)` (a
/// submodule prefix; stateless modules and normalisations built without state left out).
std::set<std::string> registeredState(const py::PythonFacts &facts, const std::string &init);

/// Every name the file could register state under, anywhere: self attributes, attributes set
/// on other objects or with setattr, and register_buffer/register_parameter/add_module names.
std::set<std::string> anyStateName(const py::PythonFacts &facts);

} // namespace kbaudit::semantic
