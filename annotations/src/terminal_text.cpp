#include "kbaudit/annotations/terminal_text.h"

#include "kbaudit/source/utf8.h"

#include <cstdint>
#include <cstdio>

namespace kbaudit::annotations {

namespace {

/// Code points a terminal acts on or that reorder what is shown (Trojan-Source style bidi).
bool isControlCodePoint(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

void appendByteEscape(std::string &out, unsigned char c) {
  switch (c) {
  case '\n': out += "\\n"; return;
  case '\r': out += "\\r"; return;
  case '\t': out += "\\t"; return;
  default: break;
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  out += buf;
}

std::string escape(std::string_view s, bool keepNewlines) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8Decode(s, i, cp);
    if (n == 0) { // one invalid byte; decoding resumes at the next
      appendByteEscape(out, static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (n == 1 && (cp < 0x20 || cp == 0x7F) && !(keepNewlines && cp == '\n')) {
      appendByteEscape(out, static_cast<unsigned char>(cp));
    } else if (isControlCodePoint(cp)) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\u{%x}", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

} // namespace

std::string terminalSafe(std::string_view s) { return escape(s, false); }

std::string terminalSafeLines(std::string_view s) { return escape(s, true); }

} // namespace kbaudit::annotations
