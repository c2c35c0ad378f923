#pragma once

// Code the preprocessor skipped is still code some compiler builds: `#ifdef __clang__` hides
// the `#else` from kbaudit's Clang while nvcc (the grader's compiler) builds it, and
// `#if __CUDA_ARCH__` splits device and host paths. A unit whose first parse skipped lines is
// parsed again under each other compiler's macros, and the facts found in lines the first
// parse skipped are added to it: every branch is read.

#include "parse_unit.h"
#include "units.h"

#include "kbaudit/cxx/frontend.h"

#include <string_view>

namespace kbaudit::cxx {

/// The macro sets of the other views that `text` (a unit) has conditionals on: nvcc with a GNU
/// host compiler (no `__clang__`, `__NVCC__` defined), and `__CUDA_ARCH__` toggled.
std::vector<std::vector<std::string>> branchVariants(const FrontendOptions &options, std::string_view text);

/// Adds to `primary` the facts that variant parses of `unit` find in lines `primary` skipped.
void addSkippedBranchFacts(UnitResult &primary, const Unit &unit, const FrontendOptions &options);

} // namespace kbaudit::cxx
