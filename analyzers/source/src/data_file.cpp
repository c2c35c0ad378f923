#include "kbaudit/source/data_file.h"

#include "kbaudit/source/source_file.h"
#include "kbaudit/source/utf8.h"

#include <algorithm>
#include <vector>

namespace kbaudit::data {

namespace {

std::string deeper(unsigned maxDepth, std::string_view text, std::size_t at) {
  return "nested deeper than " + std::to_string(maxDepth) + " levels (line " + std::to_string(lineAt(text, at)) +
         "); kbaudit does not read data nested that deep";
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

} // namespace

unsigned lineAt(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<unsigned>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::variant<std::string, std::string> readText(const std::filesystem::path &path, std::size_t maxBytes) {
  std::variant<std::string, Diagnostic> read = readRegularFile(path, maxBytes);
  if (auto *d = std::get_if<Diagnostic>(&read))
    return std::variant<std::string, std::string>(std::in_place_index<1>, d->message);
  std::string text = std::move(std::get<std::string>(read));
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    text.erase(0, 3);
  return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(text));
}

std::optional<std::string> jsonTooDeep(std::string_view text, unsigned maxDepth) {
  unsigned depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return deeper(maxDepth, text, i);
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return std::nullopt;
}

std::optional<std::string> yamlTooDeep(std::string_view text, unsigned maxDepth) {
  std::vector<std::size_t> indents; // block levels open at this point, by their indentation
  unsigned flow = 0;                // open [ and { (flow collections)
  char quote = 0;                   // inside a quoted scalar that may span lines
  bool blockScalar = false;         // inside the content of a `|` or `>` scalar
  std::size_t blockParent = 0;      // ... whose key line had this indentation
  std::size_t lineStart = 0;
  while (lineStart <= text.size()) {
    std::size_t lineEnd = text.find('\n', lineStart);
    if (lineEnd == std::string_view::npos)
      lineEnd = text.size();
    const std::string_view line = text.substr(lineStart, lineEnd - lineStart);
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ')
      ++indent;
    const bool empty = std::all_of(line.begin(), line.end(), blank);
    if (blockScalar && (empty || indent > blockParent)) {
      lineStart = lineEnd + 1;
      continue; // scalar content: brackets and dashes there are text
    }
    blockScalar = false;
    if (!quote && flow == 0 && !empty && line[indent] != '#') {
      while (!indents.empty() && indents.back() > indent)
        indents.pop_back();
      if (indents.empty() || indents.back() < indent)
        indents.push_back(indent);
    }
    unsigned extra = 0;      // `- ` and `? ` that open a level on this line
    bool valueStart = !quote; // where a flow collection, a quote or an indicator may begin
    for (std::size_t i = quote ? 0 : indent; i < line.size(); ++i) {
      const char c = line[i];
      const bool spaceAfter = i + 1 >= line.size() || blank(line[i + 1]);
      if (quote) {
        if (quote == '"' && c == '\\')
          ++i;
        else if (quote == '\'' && c == '\'' && i + 1 < line.size() && line[i + 1] == '\'')
          ++i;
        else if (c == quote)
          quote = 0;
        continue;
      }
      if (c == '#' && (i == 0 || blank(line[i - 1])))
        break;
      if (blank(c))
        continue;
      if (valueStart && flow == 0 && (c == '-' || c == '?') && spaceAfter) {
        ++extra;
        continue;
      }
      if ((c == '"' || c == '\'') && (valueStart || flow > 0)) {
        quote = c;
        valueStart = false;
        continue;
      }
      if ((c == '[' || c == '{') && (valueStart || flow > 0)) {
        ++flow;
        const std::size_t depth = indents.size() + extra + flow;
        if (depth > maxDepth)
          return deeper(maxDepth, text, lineStart + i);
        valueStart = true;
        continue;
      }
      if ((c == ']' || c == '}') && flow > 0) {
        --flow;
        valueStart = false;
        continue;
      }
      if (c == ',' && flow > 0) {
        valueStart = true;
        continue;
      }
      if (c == ':' && (spaceAfter || flow > 0)) {
        valueStart = true;
        continue;
      }
      if ((c == '|' || c == '>') && valueStart && flow == 0) {
        blockScalar = true;
        blockParent = indent;
        break;
      }
      if ((c == '&' || c == '!') && valueStart) {
        while (i + 1 < line.size() && !blank(line[i + 1]))
          ++i; // an anchor or a tag: the value comes after it
        continue;
      }
      valueStart = false;
    }
    if (indents.size() + extra + flow > maxDepth)
      return deeper(maxDepth, text, lineStart);
    lineStart = lineEnd + 1;
  }
  return std::nullopt;
}

std::size_t invalidUtf8At(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8Decode(text, i, cp);
    if (n == 0)
      return i;
    i += n;
  }
  return std::string_view::npos;
}

} // namespace kbaudit::data
