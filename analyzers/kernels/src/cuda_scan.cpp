#include "cuda_scan.h"

#include <cctype>

namespace kbaudit::kernels {

namespace {

struct Token {
  enum Kind { Ident, Punct } kind;
  std::string_view text;
  unsigned line;
};

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  unsigned line = 1;
  const auto advanceTo = [&](std::size_t &i, std::size_t to) {
    for (; i < to && i < s.size(); ++i)
      if (s[i] == '\n')
        ++line;
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (s.substr(i, 2) == "//") {
      std::size_t end = s.find('\n', i);
      advanceTo(i, end == std::string_view::npos ? s.size() : end);
      continue;
    }
    if (s.substr(i, 2) == "/*") {
      std::size_t end = s.find("*/", i + 2);
      advanceTo(i, end == std::string_view::npos ? s.size() : end + 2);
      continue;
    }
    // Raw string: R"delim( ... )delim" (also with u8/u/U/L prefixes, which end in R here).
    if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"' && (i == 0 || !identChar(s[i - 1]) ||
                                                             s[i - 1] == '8' || s[i - 1] == 'u' ||
                                                             s[i - 1] == 'U' || s[i - 1] == 'L')) {
      std::size_t open = s.find('(', i + 2);
      if (open != std::string_view::npos && open - (i + 2) <= 16) {
        const std::string close = ")" + std::string(s.substr(i + 2, open - i - 2)) + "\"";
        std::size_t end = s.find(close, open + 1);
        advanceTo(i, end == std::string_view::npos ? s.size() : end + close.size());
        continue;
      }
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') {
        if (s[j] == '\\')
          ++j;
        ++j;
      }
      advanceTo(i, j + 1);
      continue;
    }
    if (identStart(c)) {
      std::size_t j = i + 1;
      while (j < s.size() && identChar(s[j]))
        ++j;
      out.push_back({Token::Ident, s.substr(i, j - i), line});
      i = j;
      continue;
    }
    out.push_back({Token::Punct, s.substr(i, 1), line});
    ++i;
  }
  return out;
}

/// Skips a balanced (...) starting at tokens[i] == "("; returns the index after it.
std::size_t skipParens(const std::vector<Token> &t, std::size_t i) {
  int depth = 0;
  for (; i < t.size(); ++i) {
    if (t[i].text == "(") ++depth;
    else if (t[i].text == ")" && --depth == 0) return i + 1;
  }
  return t.size();
}

} // namespace

CudaScan scanCuda(std::string_view text) {
  CudaScan scan;
  const std::vector<Token> t = tokenize(text);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != Token::Ident)
      continue;
    if (t[i].text == "__global__") {
      // The kernel's name is the identifier right before the parameter list; attributes
      // such as __launch_bounds__(...) and template arguments come before it.
      std::string name;
      for (std::size_t j = i + 1; j < t.size() && t[j].text != ";" && t[j].text != "{"; ++j) {
        if (t[j].kind == Token::Ident && (t[j].text == "__launch_bounds__" ||
                                          t[j].text == "__cluster_dims__" || t[j].text == "__align__")) {
          j = skipParens(t, j + 1) - 1;
          continue;
        }
        if (t[j].text == "(" && j > 0 && t[j - 1].kind == Token::Ident) {
          name = std::string(t[j - 1].text);
          break;
        }
      }
      scan.globals.push_back({name, t[i].line});
    } else if ((t[i].text == "asm" || t[i].text == "__asm__" || t[i].text == "__asm") &&
               i + 1 < t.size()) {
      std::size_t j = i + 1;
      while (j < t.size() && (t[j].text == "volatile" || t[j].text == "__volatile__"))
        ++j;
      if (j < t.size() && t[j].text == "(")
        scan.inlineAsm.push_back({"", t[i].line});
    }
  }
  return scan;
}

} // namespace kbaudit::kernels
