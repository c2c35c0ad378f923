#pragma once

// The names the solution defines and where: Python functions and classes, and C++/CUDA
// functions with a body. A solution that carries a library's own source defines that
// library's kernels and helpers under their own names (WRAP006), whatever it imports.

#include "kbaudit/facts.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

struct Definition {
  std::string name;
  LineRange lines; ///< in solution.py
};

/// Every definition in the solution, in line order: Python defs and classes (nested ones
/// too) from their `def`/`class` line below any decorators to their end; C++ functions with a
/// body (not lambdas, not declarations) at their solution.py lines, or at the call that loads
/// a sidecar source.
std::vector<Definition> definitions(const Facts &f);

} // namespace kbaudit::semantic
