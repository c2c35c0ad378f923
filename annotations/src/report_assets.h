#pragma once

// annotations/assets (the report's template, CSS and JS), compiled in by cmake/embed_files.cmake
// so the binary renders the page from any directory.

#include "kbaudit/source/embedded_file.h"

#include <span>
#include <string_view>

namespace kbaudit::annotations {

std::span<const EmbeddedFile> embeddedReportAssets();

/// The asset at `path` (relative to annotations/, "assets/report.css"); "" when absent.
std::string_view reportAsset(std::string_view path);

} // namespace kbaudit::annotations
