#include "nesting_scan.h"

#include <array>
#include <vector>

namespace kbaudit::py {

namespace {
// The bytes the scan acts on; a run of any other byte is skipped in one tight loop.
constexpr std::array<bool, 256> kActs = [] {
  std::array<bool, 256> acts{};
  for (unsigned char c : {'\n', '#', '\\', '\'', '"', '(', '[', '{', ')', ']', '}'})
    acts[c] = true;
  return acts;
}();
} // namespace

TextNesting measureNesting(std::string_view s) {
  TextNesting out;
  std::vector<std::size_t> indents{0};
  unsigned line = 1, brackets = 0;
  bool lineStart = true;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (lineStart) {
      std::size_t width = 0, j = i;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f'))
        width += s[j++] == '\t' ? 8 - width % 8 : 1;
      lineStart = false;
      const bool blank = j >= s.size() || s[j] == '\n' || s[j] == '#' || s[j] == '\r';
      if (!blank && brackets == 0) {
        while (indents.size() > 1 && indents.back() > width)
          indents.pop_back();
        if (width > indents.back())
          indents.push_back(width);
        if (indents.size() - 1 > out.indentLevels) {
          out.indentLevels = static_cast<unsigned>(indents.size() - 1);
          out.indentLine = line;
        }
      }
      i = j;
      continue;
    }
    if (c == '\n') {
      ++line;
      lineStart = true;
      ++i;
    } else if (c == '#') {
      const std::size_t nl = s.find('\n', i);
      i = nl == std::string_view::npos ? s.size() : nl;
    } else if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
      i += 2; // a continuation line is not a new logical line
      ++line;
    } else if (c == '\'' || c == '"') {
      const bool triple = i + 2 < s.size() && s[i + 1] == c && s[i + 2] == c;
      const std::size_t quote = triple ? 3 : 1;
      i += quote;
      while (i < s.size()) {
        if (s[i] == '\\') {
          line += i + 1 < s.size() && s[i + 1] == '\n';
          i += 2;
          continue;
        }
        if (s[i] == '\n') {
          if (!triple)
            break; // an unterminated string ends at the line (the outer loop counts it)
          ++line;
          ++i;
          continue;
        }
        if (s[i] == c && (!triple || (i + 2 < s.size() && s[i + 1] == c && s[i + 2] == c))) {
          i += quote;
          break;
        }
        ++i;
      }
    } else if (c == '(' || c == '[' || c == '{') {
      if (++brackets > out.brackets) {
        out.brackets = brackets;
        out.bracketLine = line;
      }
      ++i;
    } else if ((c == ')' || c == ']' || c == '}') && brackets) {
      --brackets;
      ++i;
    } else {
      ++i;
      while (i < s.size() && !kActs[static_cast<unsigned char>(s[i])])
        ++i;
    }
  }
  return out;
}

} // namespace kbaudit::py
