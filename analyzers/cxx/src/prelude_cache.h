#pragma once

// Precompiled preludes kept on disk between processes. Every process (a `kbaudit check`, each
// audit worker) used to precompile the stub prelude itself: for a small CUDA solution that was
// two thirds of `check`'s instructions. An entry is filed under a SHA-256 of everything that
// makes the precompiled header (Clang's version, the full command line, the prelude source and
// every stub header's name, length and 64-bit checksum), so any change to those is another
// entry, never a stale one.
//
// An entry is written to a temp file and renamed into place (concurrent processes and a killed
// one never leave a torn entry under the key's name); one that is damaged anyway fails its
// header, its length or its checksum and is treated as absent, and the prelude is precompiled
// again and the entry replaced. No Clang headers here.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cxx::prelude_cache {

/// $KBAUDIT_PRELUDE_CACHE ("off" disables), else $XDG_CACHE_HOME/kbaudit/prelude, else
/// ~/.cache/kbaudit/prelude; empty when none of them is set or when disabled.
std::filesystem::path defaultDir();

/// The key of the precompiled header that `args` (the whole command line) makes of
/// `preludeSource` with the current stub headers.
std::string key(const std::vector<std::string> &args, const std::string &preludeSource);

/// The entry filed under `key` in `dir`, when there is one and it is intact; never throws.
std::optional<std::string> load(const std::filesystem::path &dir, const std::string &key);

/// Files `pch` under `key` in `dir` (creating it); false when it cannot. Never throws.
bool store(const std::filesystem::path &dir, const std::string &key, const std::string &pch);

} // namespace kbaudit::cxx::prelude_cache
