#pragma once

// kbaudit.yaml, kbaudit.toml or pyproject.toml's [tool.kbaudit] table: the same keys as the
// command line (select, ignore, problems, problem, baseline, fail_on, suite, suites) plus
// doc_base_url and model_aliases (for `kbaudit report`), kept at the repository root (TOML files may spell them fail-on, doc-base-url).
// Command-line options win over the file; paths in the file are relative to it.

#include <filesystem>
#include <map>
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
  /// `kbaudit report`: a model spelling -> the name the report shows (merges spellings the
  /// documented normalisation does not, annotations/report_model.h).
  std::map<std::string, std::string> modelAliases;
};

/// The config in `start` or the nearest parent, stopping at a repository root (a directory
/// holding .git) or the filesystem root. In one directory kbaudit.yaml wins over kbaudit.toml,
/// which wins over a pyproject.toml; a pyproject.toml without [tool.kbaudit] is not a config.
std::optional<std::filesystem::path> findConfig(const std::filesystem::path &start);

/// Parses a config (YAML, or TOML by the .toml extension); nullopt with `error` set for
/// unreadable or malformed files and unknown keys (a misspelt key must not silently change
/// what is gated).
std::optional<Config> loadConfig(const std::filesystem::path &file, std::string &error);

} // namespace kbaudit::cli
