#pragma once

// Which inputs a function hands back as its output, for MEM003 (output aliases input): asked of
// the solution's entry point (a returned input is the caller's storage) and of the reference's
// (an input the reference itself returns is the contract, as decode steps hand back state).

#include "kbaudit/facts.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// An input a `return` hands back: the parameter itself or a view of it (`x`, `x[:n]`,
/// `x.view(-1)`), not rebound before that return.
struct ReturnedInput {
  std::size_t position = 0;        ///< index into semantic::inputParams(fn)
  std::string param;
  const py::Expr *item = nullptr;  ///< the returned item (an element of a returned tuple)
  LineRange lines;                 ///< the return statement
};

/// Each input `fn` returns, once (its first return), in the order of the returns and their items.
std::vector<ReturnedInput> returnedInputs(const py::PythonFacts &py, const py::Function &fn);

/// An input of `fn` passed by name at positional argument `index` of a call to extension
/// function `exported` that a `return` of `fn` holds, not rebound before the call.
struct PassedInput {
  std::size_t position = 0; ///< index into semantic::inputParams(fn)
  std::string param;
};
std::vector<PassedInput> inputsPassedToReturnedCall(const py::PythonFacts &py, const py::Function &fn,
                                                    const std::string &exported, unsigned index);

/// The C++ definition an export binds (the last one parsed when several match); null when the
/// target was not defined in the sources.
const cxx::CxxFunction *exportDefinition(const cxx::CxxFacts &cxx, const cxx::ExportedFunction &ex);

} // namespace kbaudit::semantic
