#include "kbaudit/semantic/python_expr_scan.h"

#include "kbaudit/semantic/python_text.h"

#include <cctype>
#include <optional>
#include <vector>

namespace kbaudit::semantic::pyexpr {

namespace {

using pytext::isIdentChar;

constexpr std::size_t npos = std::string_view::npos;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isBlank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool isNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }

std::size_t skipWord(std::string_view s, std::size_t i) {
  while (i < s.size() && isIdentChar(s[i]))
    ++i;
  return i;
}

std::size_t skipBlanks(std::string_view s, std::size_t i) {
  while (i < s.size() && isBlank(s[i]))
    ++i;
  return i;
}

/// A name may start at `i`: a letter or underscore with no identifier character before it.
bool nameStartsAt(std::string_view s, std::size_t i) {
  return isNameStart(s[i]) && (i == 0 || !isIdentChar(s[i - 1]));
}

/// `(args)` at `i` whose args hold no parenthesis: the index past `)`, or npos.
std::size_t pastFlatCall(std::string_view s, std::size_t i) {
  if (i >= s.size() || s[i] != '(')
    return npos;
  const std::size_t close = s.find_first_of("()", i + 1);
  return close != npos && s[close] == ')' ? close + 1 : npos;
}

/// `.method(args)` at `i` with a flat argument list and, when `allowed` is given, a method
/// among them: the index past `)`, or npos.
std::size_t pastMethodCall(std::string_view s, std::size_t i, const std::vector<std::string_view> *allowed) {
  if (i >= s.size() || s[i] != '.')
    return npos;
  const std::size_t end = skipWord(s, i + 1);
  if (end == i + 1)
    return npos;
  if (allowed) {
    const std::string_view m = s.substr(i + 1, end - i - 1);
    bool ok = false;
    for (std::string_view a : *allowed)
      ok |= m == a;
    if (!ok)
      return npos;
  }
  return pastFlatCall(s, end);
}

/// `.sum(`/`.mean(`/... at `i`: the index past `(`, or npos.
std::size_t pastReductionOpen(std::string_view s, std::size_t i) {
  if (i >= s.size() || s[i] != '.')
    return npos;
  const std::size_t end = skipWord(s, i + 1);
  const std::string_view m = s.substr(i + 1, end - i - 1);
  for (std::string_view r : {"sum", "mean", "norm", "amax", "amin", "max", "min"})
    if (m == r)
      return end < s.size() && s[end] == '(' ? end + 1 : npos;
  return npos;
}

struct Match {
  std::size_t begin = 0, end = 0;
  std::string_view name, index;
};

/// `NAME(.view(...)|.flatten(...)|...)*[INDEX]` starting at `i`.
std::optional<Match> sampleAt(std::string_view s, std::size_t i) {
  static const std::vector<std::string_view> views = {"view",  "reshape", "flatten", "ravel",
                                                      "contiguous", "detach", "float"};
  if (!nameStartsAt(s, i))
    return std::nullopt;
  const std::size_t nameEnd = skipWord(s, i);
  std::size_t k = nameEnd;
  for (std::size_t next; (next = pastMethodCall(s, k, &views)) != npos;)
    k = next;
  if (k >= s.size() || s[k] != '[')
    return std::nullopt;
  const std::size_t close = s.find_first_of("[]", k + 1);
  if (close == npos || s[close] != ']')
    return std::nullopt;
  return Match{i, close + 1, s.substr(i, nameEnd - i), s.substr(k + 1, close - k - 1)};
}

/// `NAME(.method(...))*.reduction(` starting at `i`, with the longest chain that a reduction follows.
std::optional<Match> reductionAt(std::string_view s, std::size_t i) {
  if (!nameStartsAt(s, i))
    return std::nullopt;
  const std::size_t nameEnd = skipWord(s, i);
  std::vector<std::size_t> stops = {nameEnd};
  for (std::size_t next; (next = pastMethodCall(s, stops.back(), nullptr)) != npos;)
    stops.push_back(next);
  for (auto it = stops.rbegin(); it != stops.rend(); ++it)
    if (const std::size_t open = pastReductionOpen(s, *it); open != npos)
      return Match{i, open, s.substr(i, nameEnd - i), {}};
  return std::nullopt;
}

/// `(\s*\d+\s*(,\s*\d+\s*)+,?\s*)\s*:` at `i`: a tuple of two or more integers used as a key.
bool shapeKeyAt(std::string_view s, std::size_t i) {
  if (i >= s.size() || s[i] != '(')
    return false;
  const auto integer = [&](std::size_t j) {
    j = skipBlanks(s, j);
    if (j >= s.size() || !isDigit(s[j]))
      return npos;
    while (j < s.size() && isDigit(s[j]))
      ++j;
    return skipBlanks(s, j);
  };
  std::size_t j = integer(i + 1);
  if (j == npos)
    return false;
  int more = 0;
  for (std::size_t next; j < s.size() && s[j] == ',' && (next = integer(j + 1)) != npos; ++more)
    j = next;
  if (more == 0)
    return false;
  if (j < s.size() && s[j] == ',')
    ++j;
  j = skipBlanks(s, j);
  if (j >= s.size() || s[j] != ')')
    return false;
  j = skipBlanks(s, j + 1);
  return j < s.size() && s[j] == ':';
}

} // namespace

bool isConstantSlice(std::string_view index) {
  if (index.find(':') == npos && index.find(',') == npos)
    return false;
  bool bound = false;
  for (char c : index) {
    if (isDigit(c))
      bound = true;
    else if (!(c == ':' || c == ',' || c == ' ' || c == '-' || c == '.'))
      return false;
  }
  return bound;
}

std::string constantIndexSample(std::string_view text, const std::set<std::string> &inputs) {
  for (std::size_t i = 0; i < text.size();) {
    const std::optional<Match> m = sampleAt(text, i);
    if (!m) {
      ++i;
      continue;
    }
    const bool attribute = i > 0 && text[i - 1] == '.';
    if (!attribute && inputs.count(std::string(m->name)) && isConstantSlice(m->index))
      return std::string(text.substr(m->begin, m->end - m->begin));
    i = m->end; // the next candidate starts after this one, as a left-to-right scan reads them
  }
  return {};
}

std::string wholeTensorReduction(std::string_view text, const std::set<std::string> &inputs) {
  for (std::size_t i = 0; i < text.size();) {
    const std::optional<Match> m = reductionAt(text, i);
    if (!m) {
      ++i;
      continue;
    }
    if ((i == 0 || text[i - 1] != '.') && inputs.count(std::string(m->name)))
      return std::string(text.substr(m->begin, m->end - m->begin)) + "...)";
    i = m->end;
  }
  return {};
}

bool shapeKeyedLiteralTable(std::string_view dictText) {
  if (dictText.find("torch.tensor(") == npos && dictText.find("torch.as_tensor(") == npos)
    return false;
  for (std::size_t i = 0; i < dictText.size(); ++i)
    if ((dictText[i] == '{' || dictText[i] == ',') && shapeKeyAt(dictText, skipBlanks(dictText, i + 1)))
      return true;
  return false;
}

std::string_view trimLayout(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

std::optional<std::string_view> firstCallArgument(std::string_view text) {
  const std::size_t open = text.find('(');
  if (open == std::string_view::npos)
    return std::nullopt;
  const std::size_t end = text.find_first_of(",)", open);
  if (end == std::string_view::npos)
    return std::nullopt;
  return trimLayout(text.substr(open + 1, end - open - 1));
}

} // namespace kbaudit::semantic::pyexpr
