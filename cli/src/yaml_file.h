#pragma once

// kbaudit.yaml and baselines, read within bounds: a regular file (a FIFO never blocks the
// command), at most a few MiB, nested no deeper than data::kMaxNesting, one YAML document. Each
// refusal names the file and what is wrong, for the usage error it becomes.

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>

namespace kbaudit::cli {

/// A user's configuration file is kilobytes; a baseline lists accepted findings, which for a
/// large sweep may run to a few MiB.
inline constexpr std::size_t kMaxConfigBytes = 16u << 20;

/// The document in `file`, or nullopt with `error` ("FILE: nested deeper than 64 levels ...").
std::optional<YAML::Node> loadYamlFile(const std::filesystem::path &file, std::string &error);

} // namespace kbaudit::cli
