#pragma once

#include "kbaudit/python/facts.h"

#include <string_view>

namespace kbaudit::py {

/// Parses Python source (valid UTF-8) with tree-sitter and extracts the facts.
/// Never throws on malformed input: syntax errors become diagnostics and the facts of
/// the parts that parsed are kept.
PythonFacts analyze(std::string_view source);

} // namespace kbaudit::py
