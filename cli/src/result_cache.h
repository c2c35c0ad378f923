#pragma once

// The result cache of `kbaudit audit` (like ruff's): each finished annotation filed under its
// run's fingerprint (run_fingerprint.h: the kbaudit build, the options that change an
// annotation, the run's files, its table row and its problem's files), so a re-audit of an
// unchanged sweep, into any --out folder, hashes the runs and reads the annotations back instead
// of analysing them again.
//
// Layout: DIR/v1/<first two hex digits>/<fingerprint>. An entry is written to a temp file and
// renamed into place, so concurrent audits sharing the folder and a killed audit never leave a
// torn entry under a fingerprint's name; an entry that is damaged anyway (a full disk, a
// hand edit, a power loss) fails its checksum and is treated as absent, and the run is analysed
// again and its entry replaced.

#include <filesystem>
#include <optional>
#include <string>

namespace kbaudit::cli {

/// What a cached run's audit gave: the annotation's YAML as `kbaudit audit` writes it, with the
/// two facts the --fail-on gate needs (so a hit parses nothing).
struct CachedResult {
  std::string verdict;
  /// Some finding is not accepted by the baseline (gates under --fail-on review).
  bool openFindings = false;
  std::string yaml;
};

class ResultCache {
public:
  /// The cache in `dir`, created when missing with a CACHEDIR.TAG and a .gitignore (so backups
  /// and git skip it); nullopt with `error` set when it cannot be created.
  static std::optional<ResultCache> open(const std::filesystem::path &dir, std::string &error);

  /// The entry filed under `fingerprint` for the run whose annotation says `runId`, when there is
  /// one and it is intact; never throws.
  std::optional<CachedResult> load(const std::string &fingerprint, const std::string &runId) const;

  /// Files `result` under `fingerprint`; false (and nothing under that name) when it cannot be
  /// written: the audit goes on without it.
  bool store(const std::string &fingerprint, const std::string &runId, const CachedResult &result) const;

  const std::filesystem::path &dir() const { return dir_; }

private:
  explicit ResultCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path entryPath(const std::string &fingerprint) const;

  std::filesystem::path dir_;
};

/// The cache folder when neither --cache-dir nor --no-cache is given, as XDG's base directories
/// say: $XDG_CACHE_HOME/kbaudit, else ~/.cache/kbaudit (the compile cache is its `compiled/`);
/// never the folder an audit happens to start in. Empty when neither variable is set.
std::filesystem::path defaultResultCacheDir();

} // namespace kbaudit::cli
