#pragma once

// A rule page (markdown, as `kbaudit docs` writes it) as text for a terminal, as `ruff rule`
// prints one: no HTML comments, headings underlined, tables aligned, code blocks indented,
// inline markup and relative links reduced to their text, prose wrapped.

#include <string>

namespace kbaudit::cli {

/// `markdown` for a terminal `width` columns wide; `color` adds bold headings and dim code.
std::string markdownForTerminal(const std::string &markdown, bool color, std::size_t width = 100);

} // namespace kbaudit::cli
