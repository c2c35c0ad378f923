#pragma once

// Text derived from input (run directory and file names, run ids, messages that quote source,
// evidence, problem.yaml values) is hostile: a directory named "\x1b[2K\rX: clean" would erase
// and rewrite a line of `kbaudit check` output on a terminal. Everything printed for a human goes
// through these, so such bytes show up as visible escapes instead of acting on the terminal.
// Machine formats (YAML, JSON, SARIF) have their own escaping and do not use them.

#include <string>
#include <string_view>

namespace kbaudit::annotations {

/// `s` with every byte or code point that can act on a terminal written as a visible escape:
/// C0 controls and DEL as `\xHH` (`\n`, `\r`, `\t` as themselves, backslash-letter), C1 controls
/// (U+0080-U+009F) and bidirectional / line-separator controls (U+200E, U+200F, U+2028-U+202E,
/// U+2066-U+2069) as `\u{HHHH}`, and each byte of invalid UTF-8 as `\xHH`. Printable text,
/// including non-ASCII letters, is unchanged.
std::string terminalSafe(std::string_view s);

/// The same for text already laid out in lines (a rendered report): '\n' is kept, everything
/// else is escaped as `terminalSafe` does.
std::string terminalSafeLines(std::string_view s);

} // namespace kbaudit::annotations
