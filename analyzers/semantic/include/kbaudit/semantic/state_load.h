#pragma once

// How a module's state dict is loaded: the load methods, their `strict` argument, and whether a
// model's override of a load method makes loading lenient. RUB008 asks it.

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// `load_state_dict` or `_load_from_state_dict`.
bool isLoadMethod(std::string_view name);

/// `strict` as a load call passes it: the keyword, or the position it has in the method's signature.
const py::Argument *strictArg(const py::Call &c);

/// The receiver names the model itself or its base class (`self`, `super()`, `nn.Module`).
bool isSelfOrSuper(std::string_view receiver);

struct LenientLoad {
  LineRange lines;
  std::string how; ///< "overrides load_state_dict and passes strict=False to super().load_state_dict()"
};

/// The override `fn` of a load method makes loading lenient: it passes strict=False on, sets
/// strict=False in its arguments, discards the missing/unexpected-key reports
/// (`_load_from_state_dict`'s lists cleared), or never reads the state dict it is given (nor
/// forwards to the base class). nullopt for an override that forwards unchanged.
std::optional<LenientLoad> lenientLoadOverride(const py::PythonFacts &py, const py::Function &fn);

} // namespace kbaudit::semantic
