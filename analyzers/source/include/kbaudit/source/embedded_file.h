#pragma once

// A file compiled into the binary by cmake/embed_files.cmake (rule metadata, fixtures,
// suite overlays, the runtime probe), so kbaudit runs from any directory.

#include <string_view>

namespace kbaudit {

struct EmbeddedFile {
  std::string_view path; ///< relative to the repository root
  std::string_view content;
};

} // namespace kbaudit
