#pragma once

// Work that runs after the timed call returns, for TIME002 (deferred computation): read-back
// methods of a returned tensor subclass that launch work, callbacks registered to run later,
// and inputs forward keeps in a container that outlives the call.

#include "kbaudit/semantic/forward_reach.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// Read-back methods of `cls` (what a grader does with a result after the timer stops: `cpu`,
/// `item`, `__getitem__`, `to`, `__repr__`, ...) that launch work (ForwardReach::doesWork).
std::vector<std::string> workingReadBacks(const ForwardReach &reach, const py::Class &cls);

/// Some call on forward's path creates an instance of `cls` (semantic::instantiates).
bool instantiatedOnForward(const ForwardReach &reach, const py::Class &cls);

/// A callback `c` registers to run later that launches work: through a global registration
/// (`atexit.register`, `weakref.finalize`, a global module hook, `sys.setprofile`), which runs
/// outside the timed call, or a module's own forward hook (`moduleHook`), which runs inside
/// the module's call. In that order; empty when `c` registers nothing that works.
struct LaterCallback {
  std::string function;
  bool moduleHook = false;
};
std::vector<LaterCallback> laterCallbacks(const ForwardReach &reach, const py::Call &c);

/// The entry point's own input (a parameter, not a local of the same name) that `c` appends
/// or puts into a container that outlives the call (a `self` attribute or a module-level
/// name); "" when none.
std::string inputKeptBeyondCall(const ForwardReach &reach, const py::Call &c);

/// The file captures CUDA graphs (`torch.cuda.CUDAGraph`, `torch.cuda.graph`), whose replays
/// need their inputs kept alive.
bool capturesCudaGraphs(const py::PythonFacts &py);

} // namespace kbaudit::semantic
