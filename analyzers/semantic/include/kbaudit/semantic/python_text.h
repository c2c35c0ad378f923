#pragma once

// Small readings of Python source text and dotted names that many checks need: the rules
// compare callee names, qualnames and line text as strings, and every copy of these helpers
// must agree (a name test that differs between two rules would make them disagree on the
// same line), so they live here once.

#include "kbaudit/source/line_range.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic::pytext {

// Inline: the rules call these in their innermost loops (tens of millions of times over a
// corpus), where a call each cost more than the comparison.
inline bool startsWith(std::string_view s, std::string_view prefix) { return s.starts_with(prefix); }
inline bool endsWith(std::string_view s, std::string_view suffix) { return s.ends_with(suffix); }

/// "max" of "torch.Tensor.max"; the whole text when there is no dot.
std::string_view lastSegment(std::string_view dotted);
/// "Class" of "Class.method", "" for a free function (a qualname's first segment).
std::string classOf(std::string_view qualname);

/// "line 12" / "lines 12-14", as findings quote a range.
std::string lineText(const LineRange &r);

/// `s` without leading and trailing white space (std::isspace).
std::string_view trim(std::string_view s);

/// Where each line of `text` starts (0 first, then past each '\n'): an index for cutting many
/// line ranges out of one text without counting newlines from the top for each.
std::vector<std::size_t> lineStarts(std::string_view text);

/// A character of a Python identifier (letter, digit or underscore; ASCII).
/// Inline and ASCII by comparison: the text scans ask it of every character, and kbaudit never
/// sets a locale, so std::isalnum answered the same for the C locale, through a call.
inline bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// `name` occurs in `text` as a whole identifier that is not an attribute of something
/// else (`x` in `x + 1`, not in `self.x` or `xs`); never for an empty name.
bool mentionsName(std::string_view text, std::string_view name);

/// Where `name` next occurs in `text`, at or after `from`, as a whole C identifier: no letter,
/// digit or underscore on either side, but `x` in `self.x` or `p->x` counts (unlike
/// mentionsName). npos when it does not occur, and always for an empty name.
/// Why: C++ host text and `self.attr` receivers have no attribute rule to honour, and every
/// whole-word test of such text must agree on where a word ends.
std::size_t findIdentifier(std::string_view text, std::string_view name, std::size_t from = 0);

/// `name` occurs in `text` as a whole C identifier (findIdentifier finds it).
/// Why: the yes/no form the stream and handle tests of the timing rules ask.
bool mentionsIdentifier(std::string_view text, std::string_view name);

} // namespace kbaudit::semantic::pytext
