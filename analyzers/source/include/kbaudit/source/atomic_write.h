#pragma once

// Writing a file so that no reader ever sees it half-written, even across a SIGKILL: annotations,
// the result cache, the compile cache and the precompiled-prelude cache all need it, so it lives
// in the lowest layer once.

#include <cstddef>
#include <filesystem>
#include <string>

namespace kbaudit::source {

/// Writes `content` to `path` through a temporary file in the same directory (created with
/// O_EXCL), fsync and a rename, creating the directory if needed. Returns false and sets `error`.
bool writeFileAtomically(const std::filesystem::path &path, const std::string &content, std::string &error);

/// Removes the temporary files an interrupted writer (a SIGKILLed audit) left in `dir`; only
/// safe while no other writer uses `dir` (audit holds the output directory's lock). Returns
/// how many it removed.
std::size_t removeStaleTempFiles(const std::filesystem::path &dir);

} // namespace kbaudit::source
