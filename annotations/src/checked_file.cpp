#include "kbaudit/annotations/checked_file.h"

#include "kbaudit/source/utf8.h"

#include <filesystem>

namespace kbaudit::annotations {

std::string CheckedFile::pathOf(const std::string &findingFile) const {
  if (findingFile.empty() || findingFile == "solution.py")
    return path;
  return (std::filesystem::path(path).parent_path() / findingFile).generic_string();
}

const std::string *CheckedFile::sourceOf(const std::string &findingFile) const {
  auto it = sources.find(findingFile.empty() ? "solution.py" : findingFile);
  return it == sources.end() ? nullptr : &it->second;
}

std::string_view lineOf(std::string_view text, unsigned line) {
  if (line == 0)
    return {};
  std::size_t start = 0;
  for (unsigned l = 1; l < line; ++l) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos)
      return {};
    start = nl + 1;
  }
  if (start >= text.size())
    return {};
  std::size_t end = text.find('\n', start);
  if (end == std::string_view::npos)
    end = text.size();
  std::string_view l = text.substr(start, end - start);
  if (!l.empty() && l.back() == '\r')
    l.remove_suffix(1);
  return l;
}

namespace {

/// Columns (1-based) of `byte` in `line`, counted in `unit`; an invalid byte counts as one.
unsigned columnAt(std::string_view line, std::size_t byte, ColumnUnit unit) {
  unsigned column = 1;
  for (std::size_t i = 0; i < byte && i < line.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8Decode(line, i, cp);
    column += unit == ColumnUnit::Utf16 && n == 4 ? 2 : 1; // astral code points are surrogate pairs
    i += n == 0 ? 1 : n;
  }
  return column;
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

} // namespace

Span spanOf(std::string_view text, const LineRange &lines, ColumnUnit unit) {
  Span s{lines.begin, 0, lines.end, 0};
  if (!lines.valid())
    return s;
  const std::string_view first = lineOf(text, lines.begin), last = lineOf(text, lines.end);
  std::size_t lead = 0;
  while (lead < first.size() && blank(first[lead]))
    ++lead;
  std::size_t trail = last.size();
  while (trail > 0 && blank(last[trail - 1]))
    --trail;
  if (lead == first.size() || trail == 0) // a blank or missing line: no meaningful columns
    return s;
  s.startColumn = columnAt(first, lead, unit);
  s.endColumn = columnAt(last, trail, unit);
  if (lines.begin == lines.end && s.endColumn <= s.startColumn)
    s.endColumn = s.startColumn + 1;
  return s;
}

} // namespace kbaudit::annotations
