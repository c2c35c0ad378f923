#include "kbaudit/semantic/python_text.h"

#include <cctype>

namespace kbaudit::semantic::pytext {

std::string_view lastSegment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

std::string classOf(std::string_view qualname) {
  const auto dot = qualname.find('.');
  return dot == std::string_view::npos ? std::string{} : std::string(qualname.substr(0, dot));
}

std::string lineText(const LineRange &r) {
  return r.begin == r.end ? "line " + std::to_string(r.begin)
                          : "lines " + std::to_string(r.begin) + "-" + std::to_string(r.end);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool mentionsName(std::string_view text, std::string_view name) {
  if (name.empty())
    return false;
  const auto ident = isIdentChar;
  for (size_t pos = text.find(name); pos != std::string_view::npos; pos = text.find(name, pos + 1)) {
    const bool left = pos == 0 || (!ident(text[pos - 1]) && text[pos - 1] != '.');
    const size_t end = pos + name.size();
    if (left && (end == text.size() || !ident(text[end])))
      return true;
  }
  return false;
}

std::size_t findIdentifier(std::string_view text, std::string_view name, std::size_t from) {
  if (name.empty())
    return std::string_view::npos;
  for (size_t pos = text.find(name, from); pos != std::string_view::npos; pos = text.find(name, pos + 1)) {
    const size_t end = pos + name.size();
    if ((pos == 0 || !isIdentChar(text[pos - 1])) && (end == text.size() || !isIdentChar(text[end])))
      return pos;
  }
  return std::string_view::npos;
}

bool mentionsIdentifier(std::string_view text, std::string_view name) {
  return findIdentifier(text, name) != std::string_view::npos;
}

std::vector<std::size_t> lineStarts(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t nl = text.find('\n'); nl != std::string_view::npos; nl = text.find('\n', nl + 1))
    starts.push_back(nl + 1);
  return starts;
}

} // namespace kbaudit::semantic::pytext
