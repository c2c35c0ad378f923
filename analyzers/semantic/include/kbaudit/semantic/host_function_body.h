#pragma once

// What the MEM rules ask of the body of a C++ host function defined in solution.py itself
// (an embedded load_inline source): which freshly allocated buffers it returns unwritten, and
// which of its own parameters it returns. These read the function's lines of solution.py
// (CxxFunction::lines) with the text scans of cxx_body_scan.h, so the rules read none.

#include "kbaudit/facts.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::semantic::cxxbody {

/// The lines of `fn` in its embedded source's recovered text (each ending in '\n'), as the
/// compiler reads them: a source written on one Python line with escaped newlines or built from
/// pieces has them all. nullopt when its source lines are unknown, its source index names no
/// embedded source, or that source is a sidecar (whose lines number another file).
std::optional<std::string> solutionText(const Facts &f, const cxx::CxxFunction &fn);

/// An uninitialised allocation that a host function returns and nothing else touches.
struct UnwrittenEmptyReturn {
  std::string function;  ///< CxxFunction::qualifiedName
  std::string name;      ///< the local (`out`)
  std::string allocator; ///< as written (`torch::empty`)
  unsigned line = 0;     ///< solution.py line of the declaration
};

/// For every defined host function with solutionText (in fact order), each emptyAllocations
/// local that is a simple fresh local, is returned on some `return` line, is mentioned nowhere
/// else after its declaration, and is named by no `#define` of the function's embedded source.
/// Why: such a buffer reaches the caller holding whatever the allocator left in it.
std::vector<UnwrittenEmptyReturn> unwrittenEmptyReturns(const Facts &f);

/// A `return NAME;` of a host function where NAME is one of its parameters.
struct ReturnedParameter {
  std::string name;      ///< the parameter
  unsigned position = 0; ///< its index in parameterNames
  unsigned line = 0;     ///< solution.py line of the `return`
};

/// Each `return NAME;` in the body of `fn` (split at its first `{`) whose NAME is a parameter
/// of its signature, in text order; empty without solutionText or without a `{`. Does not test
/// whether `fn` is a definition.
/// Why: an exported function that returns its argument hands the caller's tensor back as output.
std::vector<ReturnedParameter> returnedParameters(const Facts &f, const cxx::CxxFunction &fn);

} // namespace kbaudit::semantic::cxxbody
