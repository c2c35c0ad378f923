#pragma once

// problems/suites/*.yaml, compiled in by cmake/embed_files.cmake.

#include "kbaudit/source/embedded_file.h"

#include <span>
#include <string_view>

namespace kbaudit::problems {

using EmbeddedFile = ::kbaudit::EmbeddedFile;

std::span<const EmbeddedFile> embeddedSuites();

} // namespace kbaudit::problems
