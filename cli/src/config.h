#pragma once

// kbaudit.yaml: the same keys as the command line (select, ignore, problems, problem,
// baseline, fail_on, suite, suites) plus doc_base_url, kept at the repository root. Command-line options
// win over the file; paths in the file are relative to it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cli {

struct Config {
  std::filesystem::path file;
  std::vector<std::string> select, ignore, failOn;
  std::filesystem::path problems, problem, baseline;
  std::string docBaseUrl;
  std::string suite;                          ///< a suite profile id that judges every run
  std::vector<std::filesystem::path> suites;  ///< folders of the user's own suite profiles
};

/// kbaudit.yaml in `start` or the nearest parent, stopping at a repository root (a
/// directory holding .git) or the filesystem root.
std::optional<std::filesystem::path> findConfig(const std::filesystem::path &start);

/// Parses a config; nullopt with `error` set for unreadable files and unknown keys (a
/// misspelt key must not silently change what is gated).
std::optional<Config> loadConfig(const std::filesystem::path &file, std::string &error);

} // namespace kbaudit::cli
