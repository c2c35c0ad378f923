#pragma once

// Whether a host-side narrowing conversion matters: its values must be inexact in the
// narrow type (not a mask, not a ramp of constants) and its result must feed math (a
// reduction, a contraction, a kernel, an extension, a helper of the file) in the function
// that casts. PREC001 asks this of activations forward narrows before attention or a GEMM;
// a cast whose result is only stored, printed or compared changes no score.

#include "kbaudit/facts.h"

#include <string_view>

namespace kbaudit::semantic {

/// The dotted head of a call chain as spelled, before its first call (`nn.Linear` of
/// `nn.Linear(4, 8).half`, `torch.arange` of `torch.arange(n)`); the whole spelling when it
/// holds no call.
std::string_view callHead(std::string_view spelled);

/// `resolved` names a `torch.nn` module class (`torch.nn.Linear`: a capitalised last segment
/// under `torch.nn.`), not a function of `torch.nn.functional`.
bool isNnModuleClass(std::string_view resolved);

/// The values the conversion `cast` converts are exact in any float type: its receiver is a
/// boolean mask (a comparison or a negation) or a torch factory of constants (`arange`,
/// `ones`, `zeros`, `full`, `empty`, `eye`, `tensor`, `as_tensor`, `linspace` and the `_like`
/// forms).
bool castsExactValues(const py::PythonFacts &py, const py::Call &cast);

/// The call does math with its arguments: a torch reduction or contraction (or an nn module
/// doing one), a kernel launch, a call into an extension function, or a helper of the file.
bool computesWith(const Facts &f, const py::Call &c);

/// The result of the conversion `cast` feeds math in the function that casts: it is
/// narrowed inside the argument list of a call that computesWith (`torch.matmul(a.half(), b)`),
/// or bound to a name (`q = q.half()`, `q = q.view(...).half().contiguous()`) that a later
/// such call or an `@` reads. Torch ops count their positional arguments and their receiver
/// (keywords are options and masks); kernels, extensions and helpers count every argument.
/// `cast` must be one of `f.python.calls` (it is told apart from the calls around it by address).
bool castFeedsMath(const Facts &f, const py::Call &cast);

} // namespace kbaudit::semantic
