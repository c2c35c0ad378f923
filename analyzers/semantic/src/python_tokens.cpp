#include "kbaudit/semantic/python_tokens.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace kbaudit::semantic::pytokens {

namespace {

using pytext::isIdentChar;
using pytext::lineStarts;

// <cctype>'s answers for the C locale (kbaudit never sets another), without a call per
// character of every tokenized function.
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool identStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// Length of the string literal starting at `i` (prefix letters already consumed by the caller).
std::size_t stringLength(std::string_view s, std::size_t i) {
  char q = s[i];
  bool triple = s.substr(i, 3) == std::string(3, q);
  std::size_t j = i + (triple ? 3 : 1);
  while (j < s.size()) {
    if (s[j] == '\\') {
      j += 2;
      continue;
    }
    if (triple ? s.substr(j, 3) == std::string(3, q) : s[j] == q)
      return j + (triple ? 3 : 1) - i;
    if (!triple && s[j] == '\n')
      return j - i;
    ++j;
  }
  return s.size() - i;
}

bool isString(const std::string &t) {
  return !t.empty() && (t.front() == '"' || t.front() == '\'' || t.back() == '"' || t.back() == '\'');
}

// Byte offset where 1-indexed line `n` starts; npos past the end.
std::size_t lineStart(const std::vector<std::size_t> &starts, unsigned n) {
  const std::size_t index = n == 0 ? 0 : n - 1;
  return index < starts.size() ? starts[index] : std::string_view::npos;
}

std::string_view linesOf(std::string_view text, const std::vector<std::size_t> &starts, LineRange r) {
  std::size_t start = lineStart(starts, r.begin);
  if (!r.valid() || start == std::string_view::npos)
    return {};
  std::size_t end = lineStart(starts, r.end + 1);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

bool keyword(std::string_view t) {
  static constexpr std::string_view kWords[] = {
      "False", "None", "True",      "and",      "as",      "assert", "break",      "class",  "continue", "def",
      "del",   "elif", "else",      "except",   "finally", "for",    "from",       "global", "if",       "import",
      "in",    "is",   "lambda",    "nonlocal", "not",     "or",     "pass",       "raise",  "return",   "try",
      "while", "with", "yield",     "range",    "len",     "float",  "int",        "min",    "max",      "sum",
      "abs",   "zip",  "enumerate", "list",     "tuple",   "dict",   "isinstance", "print",  "super"};
  return std::find(std::begin(kWords), std::end(kWords), t) != std::end(kWords);
}

} // namespace

Tokens tokenize(std::string_view s) {
  static constexpr std::string_view kOps3[] = {"**=", "//=", ">>=", "<<=", "..."};
  static constexpr std::string_view kOps2[] = {
      "**", "//", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ">>", "<<", ":="};
  Tokens out;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n')
        ++i;
      continue;
    }
    if (isBlank(c) || c == '\\') {
      ++i;
      continue;
    }
    if (identStart(c)) {
      std::size_t j = i;
      while (j < s.size() && isIdentChar(s[j]))
        ++j;
      // String prefixes (r"", f"", b"", rb"").
      if (j < s.size() && (s[j] == '"' || s[j] == '\'') && j - i <= 2) {
        std::size_t len = stringLength(s, j);
        out.emplace_back(s.substr(j, len));
        i = j + len;
        continue;
      }
      out.emplace_back(s.substr(i, j - i));
      i = j;
      continue;
    }
    if (isDigit(c) || (c == '.' && i + 1 < s.size() && isDigit(s[i + 1]))) {
      std::size_t j = i;
      while (j < s.size() && (isIdentChar(s[j]) || s[j] == '.'))
        ++j;
      out.emplace_back(s.substr(i, j - i));
      i = j;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t len = stringLength(s, i);
      out.emplace_back(s.substr(i, len));
      i += len;
      continue;
    }
    std::size_t len = 1;
    for (std::string_view op : kOps3)
      if (s.substr(i, 3) == op)
        len = 3;
    if (len == 1)
      for (std::string_view op : kOps2)
        if (s.substr(i, 2) == op)
          len = 2;
    out.emplace_back(s.substr(i, len));
    i += len;
  }
  // Drop `self .` so `self.k` and `k` compare equal.
  Tokens kept;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k] == "self" && k + 1 < out.size() && out[k + 1] == ".") {
      ++k;
      continue;
    }
    kept.push_back(std::move(out[k]));
  }
  return kept;
}

// The body of a def: tokens after the header's ':' (decorators and signature are the
// harness's contract, equal in every solution), without a leading docstring.
Tokens bodyTokens(std::string_view defText) {
  Tokens all = tokenize(defText);
  auto def = std::find(all.begin(), all.end(), "def");
  if (def == all.end())
    return {};
  int depth = 0;
  auto it = def;
  for (; it != all.end(); ++it) {
    if (*it == "(" || *it == "[" || *it == "{")
      ++depth;
    else if (*it == ")" || *it == "]" || *it == "}")
      --depth;
    else if (*it == ":" && depth == 0)
      break;
  }
  if (it == all.end())
    return {};
  ++it;
  if (it != all.end() && isString(*it))
    ++it;
  return Tokens(it, all.end());
}

// Local names (parameters, variables, helper names) are the copier's to rename, so they
// become "ID"; what a rename cannot change stays: keywords, modules, attribute and method
// names, keyword-argument names, literals and operators.
Tokens maskLocals(Tokens t, const py::PythonFacts &facts) {
  std::set<std::string> modules;
  for (const py::Import &i : facts.imports)
    modules.insert(i.boundName);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].empty() || !identStart(t[i][0]) || keyword(t[i]) || modules.count(t[i]))
      continue;
    bool attribute = i > 0 && t[i - 1] == ".";
    bool kwarg = i > 0 && i + 1 < t.size() && t[i + 1] == "=" && (t[i - 1] == "(" || t[i - 1] == ",");
    if (!attribute && !kwarg)
      t[i] = "ID";
  }
  return t;
}

Tokens functionTokens(std::string_view text, const py::PythonFacts &facts, const std::vector<const py::Function *> &fns) {
  Tokens out;
  const std::vector<std::size_t> starts = lineStarts(text);
  for (const py::Function *fn : fns) {
    Tokens t = bodyTokens(linesOf(text, starts, fn->lines));
    out.insert(out.end(), t.begin(), t.end());
  }
  return maskLocals(std::move(out), facts);
}

Tokens functionTokens(const Facts &f, const std::vector<const py::Function *> &fns) {
  return functionTokens(f.source.text(), f.python, fns);
}

namespace {

constexpr std::size_t kShingle = 4;

// Only membership is asked of the shingles, so a hash set (WRAP004 builds them for every
// reference and solution entry).
std::unordered_set<std::string> shingles(const Tokens &t) {
  std::unordered_set<std::string> out;
  if (t.size() < kShingle) {
    std::string all;
    for (const std::string &x : t)
      all.append(x).push_back('\x1f');
    if (!all.empty())
      out.insert(all);
    return out;
  }
  out.reserve(t.size() - kShingle + 1);
  for (std::size_t i = 0; i + kShingle <= t.size(); ++i) {
    std::string s;
    for (std::size_t k = 0; k < kShingle; ++k)
      s.append(t[i + k]).push_back('\x1f');
    out.insert(std::move(s));
  }
  return out;
}

} // namespace

double containment(const Tokens &a, const Tokens &b) {
  const std::unordered_set<std::string> x = shingles(a), y = shingles(b);
  if (x.empty())
    return 0;
  std::size_t common = 0;
  for (const std::string &g : x)
    common += y.count(g);
  return static_cast<double>(common) / static_cast<double>(x.size());
}

} // namespace kbaudit::semantic::pytokens
