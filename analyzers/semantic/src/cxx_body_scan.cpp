#include "kbaudit/semantic/cxx_body_scan.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace kbaudit::semantic::cxxbody {

namespace {

using pytext::findIdentifier;
using pytext::isIdentChar;
using pytext::trim;

constexpr std::size_t npos = std::string_view::npos;

bool isBlank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool startsAt(std::string_view s, std::size_t i, std::string_view word) { return s.substr(i, word.size()) == word; }

/// Index past the blanks starting at `i`.
std::size_t skipBlanks(std::string_view s, std::size_t i) {
  while (i < s.size() && isBlank(s[i]))
    ++i;
  return i;
}

/// Index past the identifier characters starting at `i` (`i` itself when there are none).
std::size_t skipWord(std::string_view s, std::size_t i) {
  while (i < s.size() && isIdentChar(s[i]))
    ++i;
  return i;
}

unsigned newlinesBefore(std::string_view s, std::size_t end) {
  return static_cast<unsigned>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
}

/// Past `\s*\(` at `i`, or npos.
std::size_t pastOpenParen(std::string_view s, std::size_t i) {
  i = skipBlanks(s, i);
  return i < s.size() && s[i] == '(' ? i + 1 : npos;
}

/// The allocator written at `i` and the index past its `(`:
/// `(torch|at)::(empty|empty_like|empty_strided)` or `WORD.new_empty`, each followed by `\s*\(`.
std::optional<std::pair<std::size_t, std::size_t>> allocatorAt(std::string_view s, std::size_t i) {
  for (std::string_view ns : {"torch::", "at::"}) {
    if (!startsAt(s, i, ns))
      continue;
    const std::size_t w = i + ns.size();
    const std::size_t end = skipWord(s, w);
    const std::string_view fn = s.substr(w, end - w);
    if (fn == "empty" || fn == "empty_like" || fn == "empty_strided")
      if (const std::size_t open = pastOpenParen(s, end); open != npos)
        return std::pair{end, open};
  }
  const std::size_t receiverEnd = skipWord(s, i);
  constexpr std::string_view method = ".new_empty";
  if (receiverEnd == i || !startsAt(s, receiverEnd, method))
    return std::nullopt;
  const std::size_t end = receiverEnd + method.size();
  if (const std::size_t open = pastOpenParen(s, end); open != npos)
    return std::pair{end, open};
  return std::nullopt;
}

/// A declaration `TYPE\s+NAME\s*=\s*ALLOCATOR\s*\(` starting at `i`, and the index past its `(`.
std::optional<std::pair<TensorAllocation, std::size_t>> allocationAt(std::string_view s, std::size_t i) {
  // Every type below starts with 'a' or 't': the scan asks at every character of a body.
  if (s[i] != 'a' && s[i] != 't')
    return std::nullopt;
  std::size_t j = npos;
  for (std::string_view type : {"auto", "at::Tensor", "torch::Tensor"})
    if (startsAt(s, i, type))
      j = i + type.size();
  if (j == npos || j >= s.size() || !isBlank(s[j]))
    return std::nullopt;
  j = skipBlanks(s, j);
  const std::size_t nameEnd = skipWord(s, j);
  if (nameEnd == j)
    return std::nullopt;
  std::size_t k = skipBlanks(s, nameEnd);
  if (k >= s.size() || s[k] != '=')
    return std::nullopt;
  k = skipBlanks(s, k + 1);
  const auto alloc = allocatorAt(s, k);
  if (!alloc)
    return std::nullopt;
  TensorAllocation a;
  a.name = std::string(s.substr(j, nameEnd - j));
  a.allocator = std::string(s.substr(k, alloc->first - k));
  a.offset = i;
  return std::pair{std::move(a), alloc->second};
}

/// The line starts with the word `return` after optional blanks.
bool isReturnLine(std::string_view line) {
  const std::size_t i = skipBlanks(line, 0);
  return startsAt(line, i, "return") && (i + 6 == line.size() || !isIdentChar(line[i + 6]));
}

/// Top-level pieces of `text` split at commas (outside brackets and quoted literals, a
/// backslash escaping inside quotes), each trimmed.
std::vector<std::string> splitTopLevelCommas(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (depth == 0 && c == ',') {
      out.emplace_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.emplace_back(trim(text.substr(start)));
  return out;
}

} // namespace

std::vector<TensorAllocation> emptyAllocations(std::string_view body) {
  std::vector<TensorAllocation> out;
  for (std::size_t i = 0; i < body.size();) {
    auto found = allocationAt(body, i);
    if (!found) {
      ++i;
      continue;
    }
    found->first.line = newlinesBefore(body, i);
    out.push_back(std::move(found->first));
    i = found->second;
  }
  return out;
}

std::optional<LocalUses> usesAfterDeclaration(std::string_view body, const TensorAllocation &a) {
  if (a.offset > body.size())
    return std::nullopt;
  const std::size_t declEnd = body.find(';', a.offset);
  if (declEnd == npos || findIdentifier(body.substr(0, a.offset), a.name) != npos)
    return std::nullopt;
  const std::string_view after = body.substr(declEnd + 1);
  LocalUses uses;
  for (std::size_t p = findIdentifier(after, a.name); p != npos; p = findIdentifier(after, a.name, p + a.name.size())) {
    const std::size_t nl = after.rfind('\n', p);
    const std::size_t lineStart = nl == npos ? 0 : nl + 1;
    const std::size_t lineEnd = after.find('\n', p);
    const std::string_view line = after.substr(lineStart, lineEnd == npos ? npos : lineEnd - lineStart);
    if (isReturnLine(line))
      ++uses.returnLines;
    else
      ++uses.otherMentions;
  }
  return uses;
}

bool macroMentions(std::string_view source, std::string_view identifier) {
  if (identifier.empty())
    return false;
  std::size_t pos = 0;
  while ((pos = source.find("#define", pos)) != npos) {
    // The definition runs to the first newline not escaped by a trailing backslash.
    std::size_t end = pos;
    do {
      end = source.find('\n', end + 1);
    } while (end != npos && end > 0 && source[end - 1] == '\\');
    const std::string_view def = source.substr(pos, end == npos ? npos : end - pos);
    if (findIdentifier(def, identifier) != npos)
      return true;
    if (end == npos)
      break;
    pos = end;
  }
  return false;
}

std::optional<Definition> splitDefinition(std::string_view text) {
  const std::size_t brace = text.find('{');
  if (brace == npos)
    return std::nullopt;
  return Definition{text.substr(0, brace), text.substr(brace), newlinesBefore(text, brace)};
}

std::vector<std::string> parameterNames(std::string_view signature) {
  std::vector<std::string> out;
  const std::size_t open = signature.find('(');
  const std::size_t close = signature.rfind(')');
  if (open == npos || close == npos || close <= open)
    return out;
  const std::string_view inner = signature.substr(open + 1, close - open - 1);
  if (trim(inner).empty())
    return out;
  for (const std::string &piece : splitTopLevelCommas(inner)) {
    std::string_view p = std::string_view(piece).substr(0, piece.find('='));
    while (!p.empty() && !isIdentChar(p.back()))
      p.remove_suffix(1);
    std::size_t b = p.size();
    while (b > 0 && isIdentChar(p[b - 1]))
      --b;
    out.emplace_back(p.substr(b));
  }
  return out;
}

std::vector<ReturnedIdentifier> returnedIdentifiers(std::string_view body) {
  std::vector<ReturnedIdentifier> out;
  constexpr std::string_view kw = "return";
  for (std::size_t i = body.find(kw); i != npos; i = body.find(kw, i + 1)) {
    if (i > 0 && isIdentChar(body[i - 1]))
      continue;
    std::size_t j = i + kw.size();
    if (j >= body.size() || !isBlank(body[j]))
      continue;
    j = skipBlanks(body, j);
    const std::size_t nameEnd = skipWord(body, j);
    if (nameEnd == j)
      continue;
    const std::size_t semi = skipBlanks(body, nameEnd);
    if (semi >= body.size() || body[semi] != ';')
      continue;
    out.push_back({std::string(body.substr(j, nameEnd - j)), i, newlinesBefore(body, i)});
    i = semi; // resume after the statement's `;`
  }
  return out;
}

} // namespace kbaudit::semantic::cxxbody
