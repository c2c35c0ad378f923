#pragma once

// The reference module's public API as a contract on the solution: a function or method the
// solution redefines under the reference's name must compute from the same inputs. A
// parameter the reference's version reads and the solution's never mentions is an input the
// solution's result cannot depend on.

#include "kbaudit/python/facts.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// A public function or method of the reference's API and the solution's definition of it.
struct ApiPair {
  const py::Function *solution = nullptr;
  const py::Function *reference = nullptr;
};

/// The reference's public API (module-level functions and model methods without a leading
/// underscore; not `get_inputs`/`get_init_inputs`) that the solution redefines, under the same
/// qualname or as the same method of a renamed model class (`Model` -> `ModelNew`). A harness
/// may call any of these, not only forward (`run`, `prefill`, `decode_steps`).
std::vector<ApiPair> redefinedReferenceApi(const py::PythonFacts &solution, const py::PythonFacts &reference,
                                           const std::string &referenceModelClass);

struct IgnoredInput {
  const py::Function *solution = nullptr;  ///< the solution's definition
  const py::Function *reference = nullptr; ///< the reference's definition of the same name
  std::string parameter;
};

/// Public functions and methods of the reference (no leading underscore; not `__init__`,
/// `get_inputs`, `get_init_inputs`), redefined by the solution under the same qualname (the
/// model class may be renamed `ModelNew`), whose parameters the reference reads and the
/// solution's body never mentions. The first parameter of a method (`self`) is not an input,
/// nor is a parameter the reference declares with a default (optional configuration);
/// bodies that read through locals()/vars()/eval/exec are skipped.
std::vector<IgnoredInput> ignoredInputs(const py::PythonFacts &solution, const py::PythonFacts &reference,
                                        const std::string &referenceModelClass);

} // namespace kbaudit::semantic
