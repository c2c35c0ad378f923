#pragma once

// Maintainer baselines (kbaudit-baseline.yaml): reviewed findings accepted by run id or by
// content hash. Suppression belongs to the maintainer, never to the audited code, so there
// is no in-source comment that silences a rule; an accepted finding is still reported.

#include "kbaudit/rules/finding.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cli {

struct BaselineEntry {
  std::string run;           ///< run id; empty when keyed by content
  std::string contentSha256; ///< solution.py's sha256; empty when keyed by run
  std::string rule;          ///< rule id, or a category prefix ("WRAP")
  std::string reason;
  std::string who;
};

struct Baseline {
  std::filesystem::path file;
  std::vector<BaselineEntry> entries;
};

/// Reads a baseline; nullopt with `error` set when the file is unreadable or an entry lacks
/// run/content_sha256, rule, reason or who (an unexplained acceptance is not accepted).
std::optional<Baseline> loadBaseline(const std::filesystem::path &file, std::string &error);

/// The baseline as the file `loadBaseline` reads (what `kbaudit baseline` writes): a comment,
/// then `accepted:` with every entry, strings double-quoted.
std::string baselineYaml(const Baseline &baseline);

/// Marks the findings the baseline accepts for this run.
void applyBaseline(const Baseline &baseline, const std::string &runId, const std::string &contentSha256,
                   std::vector<rules::Finding> &findings);

} // namespace kbaudit::cli
