#pragma once

// Which Python branch facts choose between code paths. PREC005 and WRAP007 both ask "does this
// test select the code under it" and must agree on what counts as a selection.

#include <string_view>

namespace kbaudit::semantic {

/// `if`/`elif` statements, conditional expressions and `match`: branches that pick which code
/// runs (`while` repeats and `assert` guards instead).
inline bool isSelection(std::string_view kind) {
  return kind == "if" || kind == "elif" || kind == "conditional" || kind == "match";
}

} // namespace kbaudit::semantic
