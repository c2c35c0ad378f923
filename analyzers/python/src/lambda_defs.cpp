#include "lambda_defs.h"
#include "line_edit.h"

#include <cctype>
#include <vector>

namespace kbaudit::py {

namespace {

/// Offset of the ':' that ends a lambda's parameters in `text` (after `lambda`), skipping
/// brackets and strings of default values; npos when there is none on this line.
std::size_t paramsEnd(std::string_view text) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quote) {
      if (ch == '\\')
        ++i;
      else if (ch == quote)
        quote = 0;
      continue;
    }
    if (ch == '\'' || ch == '"')
      quote = ch;
    else if (ch == '(' || ch == '[' || ch == '{')
      ++depth;
    else if (ch == ')' || ch == ']' || ch == '}')
      --depth;
    else if (ch == ':' && depth == 0)
      return i;
    else if (ch == '#')
      return std::string_view::npos;
  }
  return std::string_view::npos;
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'))
      return false;
  return true;
}

} // namespace

std::optional<std::string> lambdasAsDefs(std::string_view source, const PythonFacts &facts) {
  // Split into lines only once a module-level lambda is bound to a name: most files have none,
  // and the split copies every line.
  std::vector<std::string> lines;
  bool split = false;
  bool any = false;
  for (const Assignment &a : facts.assignments) {
    // In a def, a lambda bound to a local is a closure the scope rules already read in place.
    if (a.kind != Assignment::TargetKind::Name || a.op != "=" || a.value.kind != ExprKind::Lambda ||
        !a.function.empty() || !isIdentifier(a.target) || a.lines.begin == 0)
      continue;
    if (!split) {
      lines = linesOf(source);
      split = true;
    }
    if (a.lines.begin > lines.size())
      continue;
    std::string &line = lines[a.lines.begin - 1];
    const std::size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string::npos || std::string_view(line).substr(indent, a.target.size()) != a.target)
      continue;
    std::size_t at = line.find_first_not_of(" \t", indent + a.target.size());
    if (at == std::string::npos || line[at] != '=' || (at + 1 < line.size() && line[at + 1] == '='))
      continue;
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos || line.compare(at, 6, "lambda") != 0 ||
        (at + 6 < line.size() && (std::isalnum(static_cast<unsigned char>(line[at + 6])) || line[at + 6] == '_')))
      continue;
    const std::size_t paramsAt = at + 6;
    const std::size_t colon = paramsAt + paramsEnd(std::string_view(line).substr(paramsAt));
    if (colon < paramsAt || colon >= line.size())
      continue;
    line = line.substr(0, indent) + "def " + a.target + "(" + line.substr(paramsAt, colon - paramsAt) +
           "): return " + line.substr(colon + 1);
    any = true;
  }
  if (!any)
    return std::nullopt;
  return joinLines(lines);
}

} // namespace kbaudit::py
