#pragma once

// problems/<suite>/*.yaml, compiled in by cmake/embed_files.cmake.

#include <span>
#include <string_view>

namespace kbaudit::problems {

struct EmbeddedFile {
  std::string_view path; ///< relative to the repository root
  std::string_view content;
};

std::span<const EmbeddedFile> embeddedOverlays();

} // namespace kbaudit::problems
