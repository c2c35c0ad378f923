#pragma once

// Reading nvcc's output: which header was missing, and the first errors mapped back to the
// embedded sources' lines.

#include "kbaudit/compiled/facts.h"
#include "kbaudit/embed/units.h"

#include <string>
#include <vector>

namespace kbaudit::compiled {

/// The header an #include could not find ("cutlass/cutlass.h"), "" when none.
std::string missingHeader(const std::string &log);

/// Up to 8 errors of the compile of `fileName`; a line of that file is mapped through the unit
/// (after the `preludeLines` kbaudit put before it) and the source's line map.
std::vector<CompiledUnit::Error> compilerErrors(const std::string &log, const std::string &fileName,
                                                const embed::Unit &unit, unsigned preludeLines,
                                                const std::vector<embed::EmbeddedSource> &sources);

} // namespace kbaudit::compiled
