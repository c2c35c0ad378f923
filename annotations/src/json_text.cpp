#include "json_text.h"

#include <cstdio>

namespace kbaudit::annotations::json {

std::string escapeDelAndC1(const std::string &json) {
  std::string out;
  out.reserve(json.size());
  char buf[8];
  for (std::size_t i = 0; i < json.size(); ++i) {
    const auto c = static_cast<unsigned char>(json[i]);
    if (c == 0x7F) {
      out += "\\u007f";
    } else if (c == 0xC2 && i + 1 < json.size() && static_cast<unsigned char>(json[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(json[i + 1]) <= 0x9F) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(json[++i]));
      out += buf;
    } else {
      out += json[i];
    }
  }
  return out;
}

} // namespace kbaudit::annotations::json
