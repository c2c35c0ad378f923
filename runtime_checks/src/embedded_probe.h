#pragma once

// runtime_checks/probe.py, compiled in by cmake/embed_files.cmake.

#include <span>
#include <string_view>

namespace kbaudit::runtime {

struct EmbeddedFile {
  std::string_view path;
  std::string_view content;
};

std::span<const EmbeddedFile> embeddedProbe();

} // namespace kbaudit::runtime
