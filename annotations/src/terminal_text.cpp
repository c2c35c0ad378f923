#include "kbaudit/annotations/terminal_text.h"

#include <cstdint>
#include <cstdio>

namespace kbaudit::annotations {

namespace {

/// Length of the valid UTF-8 sequence at s[i] and its code point; 0 when invalid (overlong
/// forms, surrogates, code points above U+10FFFF, truncated sequences).
std::size_t decode(std::string_view s, std::size_t i, std::uint32_t &cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  std::size_t n;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) { n = 3; lo = 0xA0; }
  else if (c == 0xED) { n = 3; hi = 0x9F; }
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) { n = 4; lo = 0x90; }
  else if (c == 0xF4) { n = 4; hi = 0x8F; }
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else return 0;
  if (i + n > s.size() || b(i + 1) < lo || b(i + 1) > hi)
    return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF)
      return 0;
  cp = c & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k)
    cp = (cp << 6) | (b(i + k) & 0x3F);
  return n;
}

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
    const std::size_t n = decode(s, i, cp);
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
