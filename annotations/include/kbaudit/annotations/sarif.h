#pragma once

// SARIF 2.1.0 for code-scanning UIs: every rule in the tool driver (id, name, short/full
// description, help link to its doc page), one result per finding with its region in
// solution.py, baseline-accepted findings as external suppressions, and kbaudit's verdict
// in the run's properties.

#include "kbaudit/annotations/annotation.h"

#include <string>
#include <vector>

namespace kbaudit::annotations {

/// `artifactPaths[i]` is where annotation i's solution.py lies relative to the repository
/// root, so locations resolve in the checked-out repository. `docBaseUrl` prefixes
/// "<ID>.md"; "" means the docs/rules directory of this build's source tree.
std::string toSarif(const std::vector<Annotation> &annotations, const std::vector<std::string> &artifactPaths,
                    const std::string &docBaseUrl = {});

} // namespace kbaudit::annotations
