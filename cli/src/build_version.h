#pragma once
// The version line `kbaudit --version` prints: the project version and, from a git checkout, the
// `git describe --tags --always --dirty` of the tree it was configured from.

#include <string>

namespace kbaudit::cli {

/// "0.1.0 (git v0.1.0-3-gabc1234-dirty)", or "0.1.0" when the build did not come from git.
std::string versionLine();

} // namespace kbaudit::cli
