#pragma once

// The kernel work summary of each export: what the function Python calls reaches through
// the call graph (host helpers, lambdas, functions defined in other sources of the same
// extension module), which kernels that launches and which libraries it calls.

#include "kbaudit/cxx/facts.h"
#include "kbaudit/cxx/frontend.h"
#include "kbaudit/embed/embedded_source.h"

#include <vector>

namespace kbaudit::cxx {

/// Adds the exports implied by `functions=` lists, then fills every export's summary.
/// Facts must already carry their `source`.
void summarizeExports(CxxFacts &facts, const std::vector<embed::EmbeddedSource> &sources,
                      const FrontendOptions &options);

} // namespace kbaudit::cxx
