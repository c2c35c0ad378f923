#pragma once

// The compile cache: one file per (source text, flags, architecture, toolkit, headers) key,
// holding what the compiler produced. Audits running at once share it safely: an entry is
// written to a temporary file in the same directory and renamed into place, so a reader sees
// a whole entry or none. Unreadable or foreign entries are misses.

#include "kbaudit/compiled/facts.h"

#include <filesystem>
#include <optional>
#include <string>

namespace kbaudit::compiled {

struct CacheEntry {
  UnitStatus status = UnitStatus::Failed;
  std::string why;
  double seconds = 0;     ///< the compile's wall time when it ran
  std::string log;        ///< the compiler's output (errors, warnings), clipped
  std::string ptx;
  std::string ptxasLog;   ///< ptxas -v
  std::string ptxasError; ///< ptxas failed on the PTX ("" when it did not)
};

class CompileCache {
public:
  /// An empty directory disables the cache.
  explicit CompileCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  bool enabled() const { return !dir_.empty(); }
  std::optional<CacheEntry> load(const std::string &key) const;
  /// False when the entry could not be written (the audit goes on without it).
  bool store(const std::string &key, const CacheEntry &entry) const;

private:
  std::filesystem::path pathOf(const std::string &key) const;
  std::filesystem::path dir_;
};

/// SHA-256 (hex) of the parts, each length-prefixed so no two lists collide.
std::string cacheKey(const std::vector<std::string> &parts);

} // namespace kbaudit::compiled
