#include "kbaudit/annotations/run_file_name.h"

#include "kbaudit/source/sha256.h"

#include <cctype>

namespace kbaudit::annotations {

namespace {

// 255 bytes is the usual file-name limit; leave room for `.yaml` and the writer's temp name.
constexpr std::size_t kMaxStem = 200;
constexpr std::size_t kHashedPrefix = 160;

bool keep(unsigned char c) { return std::isalnum(c) || c == '.' || c == '_' || c == '-'; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1; // lower case is never written, so it is not an encoding
}

} // namespace

std::string annotationFileName(std::string_view runId) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string stem;
  for (std::size_t i = 0; i < runId.size(); ++i) {
    const auto c = static_cast<unsigned char>(runId[i]);
    if (keep(c) && !(i == 0 && c == '.')) {
      stem += static_cast<char>(c);
    } else {
      stem += '%';
      stem += kHex[c >> 4];
      stem += kHex[c & 15];
    }
  }
  if (stem.empty())
    stem = "%"; // the empty id: a lone '%' encodes nothing else
  if (stem.size() > kMaxStem) {
    std::string hash = sha256Hex(runId).substr(0, 16);
    // Do not split a %XX escape (cosmetic: the hash tells the names apart).
    std::size_t cut = kHashedPrefix;
    if (stem[cut - 1] == '%')
      cut -= 1;
    else if (stem[cut - 2] == '%')
      cut -= 2;
    stem = stem.substr(0, cut) + "~" + hash;
  }
  return stem + ".yaml";
}

std::optional<std::string> runIdFromFileStem(std::string_view stem) {
  if (stem == "%")
    return std::string();
  std::string id;
  for (std::size_t i = 0; i < stem.size(); ++i) {
    const auto c = static_cast<unsigned char>(stem[i]);
    if (c == '%') {
      if (i + 2 >= stem.size())
        return std::nullopt;
      const int hi = hexValue(stem[i + 1]), lo = hexValue(stem[i + 2]);
      if (hi < 0 || lo < 0)
        return std::nullopt;
      const auto decoded = static_cast<unsigned char>(hi * 16 + lo);
      if (keep(decoded) && !(i == 0 && decoded == '.'))
        return std::nullopt; // not how annotationFileName writes it
      id += static_cast<char>(decoded);
      i += 2;
    } else if (keep(c) && !(i == 0 && c == '.')) {
      id += static_cast<char>(c);
    } else {
      return std::nullopt;
    }
  }
  return id;
}

} // namespace kbaudit::annotations
