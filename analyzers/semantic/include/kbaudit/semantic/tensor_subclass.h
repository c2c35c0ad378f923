#pragma once

// The file's torch.Tensor subclasses and where their instances end up in the harness's hands.
// A subclass instance that forward returns (or an argument whose class forward rebinds) puts
// the solution's own methods between the grader and the result: every read, comparison or
// copy of the output runs them after the timed call. TIME002 (deferred work) and RUB014
// (comparisons answered by the subclass) both ask this and must agree on it.

#include "kbaudit/python/facts.h"

#include <functional>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// `c` derives from torch.Tensor or torch.nn.Parameter (directly or through another class of
/// the file), or defines `__torch_function__` / `__torch_dispatch__` (a tensor-like type).
bool isTensorSubclass(const py::PythonFacts &facts, const py::Class &c);

/// `c` defines `__torch_function__` or `__torch_dispatch__`: every torch operation on an
/// instance runs its code.
bool interceptsTorchOps(const py::Class &c);

/// Call `c` makes an instance of class `cls`: its constructor, `cls.__new__`,
/// `t.as_subclass(cls)`, `torch.Tensor._make_subclass(cls, ...)`,
/// `torch.Tensor._make_wrapper_subclass(cls, ...)`, or a class/static method of `cls` that
/// returns one of those.
bool instantiates(const py::PythonFacts &facts, const py::Call &c, const py::Class &cls);

/// An instance of one of the file's tensor subclasses that the harness receives.
struct SubclassEscape {
  const py::Class *cls = nullptr;
  LineRange lines;      ///< the instantiating call, or the `arg.__class__ = Cls` assignment
  std::string function; ///< where that happens
  bool rebindsArgument = false; ///< an entry point's argument had its class rebound
};

/// Instances of the file's tensor subclasses that reach what one of `entries` returns
/// (instances made inside the class's own methods are its machinery and are judged where
/// those methods are called), and entry-point arguments whose class a function `reached`
/// rebinds to one (`output.__class__ = Lazy`, pygpubench's preallocated output).
std::vector<SubclassEscape> escapingSubclassInstances(const py::PythonFacts &facts,
                                                      const std::vector<std::string> &entries,
                                                      const std::function<bool(const std::string &)> &reached);

/// The ways `c` can answer a grader's comparison or read-back of its instances: the
/// comparison and read-back methods it overrides (`__eq__`, `allclose`, `__sub__`, `abs`,
/// `max`, `item`, `tolist`, `cpu`, ...) and, inside its `__torch_function__` /
/// `__torch_dispatch__`, the comparison ops it singles out by name (`torch.allclose`,
/// `torch.ops.aten.eq`, the string "allclose", ...). Empty when it has none.
std::vector<std::string> comparisonHooks(const py::PythonFacts &facts, const py::Class &c);

} // namespace kbaudit::semantic
