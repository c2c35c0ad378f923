#pragma once

// The runtime_checks/kbaudit_probe package, compiled in by cmake/embed_files.cmake.

#include "kbaudit/source/embedded_file.h"

#include <span>
#include <string_view>

namespace kbaudit::runtime {

std::span<const EmbeddedFile> embeddedProbe();

} // namespace kbaudit::runtime
