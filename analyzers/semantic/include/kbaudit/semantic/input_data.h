#pragma once

// Whether a value is the data of a function's inputs or of the module's weights, as opposed
// to a value the function computed (a mask, an index ramp, an activation). A narrowing of
// input or weight data throws away precision the problem handed in (PREC001); a cast of a
// computed value is judged by what it feeds.

#include "kbaudit/facts.h"

#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// The root name of a receiver, as a call fact spells it, that is the same data as a name:
/// `x`, `self.weight`, `x.contiguous()`, `w.t()`, `self.lin.weight.data`, `x.view(-1).float()`
/// give their root; a computed value (`(idx < n)`, `torch.arange(n)`, `x + 1`) or a call that
/// is not a view-like method gives "". The receiver-string counterpart of sameDataRoot.
std::string receiverDataRoot(std::string_view receiver);

/// `fn` declares a parameter `name` (annotations, defaults and `*`/`**` aside).
bool declaresParam(const py::Function &fn, std::string_view name);

/// `root` (a data root) in `function` is an input or a weight: `self` (the module's own
/// state), or a parameter of the function (false when the function is not known).
bool isInputOrWeight(const py::PythonFacts &py, const std::string &function, const std::string &root);

} // namespace kbaudit::semantic
