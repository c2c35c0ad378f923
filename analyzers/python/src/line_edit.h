#pragma once
// Line-preserving rewrites of the analysed text (lambdas read as defs, exec'd strings read as
// code): split into lines, edit some, join back, so every fact keeps solution.py's numbering.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::py {

/// The text's lines without their '\n'; line n is element n - 1 (a trailing '\n' gives a last,
/// empty line, so joinLines gives the text back).
inline std::vector<std::string> linesOf(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t nl = text.find('\n', start);
    out.emplace_back(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos)
      return out;
    start = nl + 1;
  }
}

inline std::string joinLines(const std::vector<std::string> &lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    out += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  return out;
}

} // namespace kbaudit::py
