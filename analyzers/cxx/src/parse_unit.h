#pragma once

// Runs Clang on one translation unit. The facts come back in unit coordinates: `lines`
// are lines of Unit::text and `source` is unset; frontend.cpp maps them to solution.py.

#include "kbaudit/cxx/facts.h"
#include "kbaudit/cxx/frontend.h"
#include "units.h"

#include <vector>

namespace kbaudit::cxx {

struct UnitResult {
  CxxFacts facts;                   ///< parses holds exactly one report
  std::vector<unsigned> errorLines; ///< unit line of every error (0 when outside the unit)
  /// Unit lines the preprocessor skipped (inactive #if/#ifdef/#else branches).
  std::vector<LineRange> skippedLines;
};

UnitResult parseUnit(const Unit &unit, const FrontendOptions &options);

} // namespace kbaudit::cxx
