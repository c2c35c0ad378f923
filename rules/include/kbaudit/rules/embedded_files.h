#pragma once

#include "kbaudit/source/embedded_file.h"

#include <span>
#include <string_view>

namespace kbaudit::rules {

using EmbeddedFile = ::kbaudit::EmbeddedFile;

/// rules/<CATEGORY>/<ID>.yaml, compiled in.
std::span<const EmbeddedFile> embeddedRuleYaml();
/// tests/fixtures/<ID>/*.py, compiled in for the doc pages.
std::span<const EmbeddedFile> embeddedRuleFixtures();

} // namespace kbaudit::rules
