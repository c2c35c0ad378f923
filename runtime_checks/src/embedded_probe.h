#pragma once

// runtime_checks/probe.py, compiled in by cmake/embed_files.cmake.

#include "kbaudit/source/embedded_file.h"

#include <span>
#include <string_view>

namespace kbaudit::runtime {

using EmbeddedFile = ::kbaudit::EmbeddedFile;

std::span<const EmbeddedFile> embeddedProbe();

} // namespace kbaudit::runtime
