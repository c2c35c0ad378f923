#pragma once

// How deep a Python text nests, measured on the text itself (a tokenizer's view: indentation
// levels and open brackets outside strings and comments), without the parser. Past CPython's own
// limits (100 indentation levels, 200 open brackets) tree-sitter's tree is not a reliable view of
// the file (300 nested `if`s parse as syntax errors), so the front end reports it as a part it
// did not see rather than as a file it read.

#include <string_view>

namespace kbaudit::py {

/// CPython's tokenizer limits (MAXINDENT, MAXLEVEL in Parser/tokenizer.h).
inline constexpr unsigned kCpythonMaxIndent = 100;
inline constexpr unsigned kCpythonMaxBrackets = 200;

struct TextNesting {
  unsigned indentLevels = 0; ///< deepest indentation, in levels
  unsigned indentLine = 0;   ///< 1-based line where it is reached
  unsigned brackets = 0;     ///< most brackets open at once
  unsigned bracketLine = 0;
};

TextNesting measureNesting(std::string_view source);

} // namespace kbaudit::py
