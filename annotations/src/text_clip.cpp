// Length limits counted the way GitHub's SARIF ingestion counts them (UTF-16 code units).

#include "kbaudit/annotations/sarif.h"

#include "kbaudit/source/utf8.h"

namespace kbaudit::annotations {

namespace {

/// Bytes of `text` whose UTF-16 length is at most `maxUnits`, ending on a code point boundary.
std::size_t prefixWithin(const std::string &text, std::size_t maxUnits) {
  std::size_t units = 0, i = 0;
  while (i < text.size()) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8Decode(text, i, cp);
    const std::size_t u = n == 4 ? 2 : 1;
    if (units + u > maxUnits)
      break;
    units += u;
    i += n == 0 ? 1 : n;
  }
  return i;
}

} // namespace

std::size_t utf16Length(const std::string &text) {
  std::size_t units = 0;
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8Decode(text, i, cp);
    units += n == 4 ? 2 : 1;
    i += n == 0 ? 1 : n;
  }
  return units;
}

std::string clipText(const std::string &text, std::size_t maxUnits) {
  if (utf16Length(text) <= maxUnits)
    return text;
  static const std::string kEllipsis = "\xE2\x80\xA6"; // one UTF-16 unit
  if (maxUnits == 0)
    return {};
  const std::string head = text.substr(0, prefixWithin(text, maxUnits - 1));
  // A whole sentence reads better than a cut one: the last ". " that leaves at least half.
  const std::size_t sentence = head.rfind(". ");
  if (sentence != std::string::npos && sentence + 1 >= head.size() / 2)
    return head.substr(0, sentence + 1);
  const std::size_t space = head.find_last_of(" \n");
  std::string out = space != std::string::npos && space >= head.size() / 2 ? head.substr(0, space) : head;
  return out + kEllipsis;
}

} // namespace kbaudit::annotations
