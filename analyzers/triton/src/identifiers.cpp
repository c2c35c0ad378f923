#include "identifiers.h"

#include <algorithm>
#include <array>

namespace kbaudit::triton::detail {

namespace {
bool isStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isPart(char c) { return isStart(c) || (c >= '0' && c <= '9'); }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\'; }

constexpr std::array<std::string_view, 17> kKeywords = {
    "and", "or", "not", "in", "is", "if", "else", "for", "lambda", "None", "True", "False",
    "await", "async", "yield", "from", "as"};
} // namespace

bool isIdentifier(std::string_view text) {
  if (text.empty() || !isStart(text[0]))
    return false;
  return std::all_of(text.begin(), text.end(), isPart);
}

std::vector<std::string> identifiersIn(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\'' || c == '"') { // skip a string literal (escapes honoured, prefixes were
      char q = c;                // tokenized as identifiers just before and are harmless)
      ++i;
      while (i < text.size() && text[i] != q)
        i += text[i] == '\\' ? 2 : 1;
      ++i;
      continue;
    }
    if (c >= '0' && c <= '9') { // a number, including 1e3 and 0x1F
      while (i < text.size() && (isPart(text[i]) || text[i] == '.'))
        ++i;
      continue;
    }
    if (!isStart(c)) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && isPart(text[i]))
      ++i;
    std::string_view word = text.substr(start, i - start);
    size_t before = start;
    while (before > 0 && isBlank(text[before - 1]))
      --before;
    bool attribute = before > 0 && text[before - 1] == '.';
    size_t after = i;
    while (after < text.size() && isBlank(text[after]))
      ++after;
    bool keywordArg = after < text.size() && text[after] == '=' &&
                      (after + 1 >= text.size() || text[after + 1] != '=');
    bool isString = i < text.size() && (text[i] == '\'' || text[i] == '"'); // f"..", r".."
    if (attribute || keywordArg || isString ||
        std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end())
      continue;
    if (std::find(out.begin(), out.end(), word) == out.end())
      out.emplace_back(word);
  }
  return out;
}

} // namespace kbaudit::triton::detail
