#pragma once

#include <span>
#include <string_view>

namespace kbaudit::rules {

struct EmbeddedFile {
  std::string_view path; ///< relative to the repository root
  std::string_view content;
};

/// rules/<CATEGORY>/<ID>.yaml, compiled in.
std::span<const EmbeddedFile> embeddedRuleYaml();
/// tests/fixtures/<ID>/*.py, compiled in for the doc pages.
std::span<const EmbeddedFile> embeddedRuleFixtures();

} // namespace kbaudit::rules
