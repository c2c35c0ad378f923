#include "kbaudit/annotations/html_report.h"

namespace kbaudit::annotations {

std::string htmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    // A raw CR would be folded into LF by the parser; the reference keeps the text as it was
    // (the page's CSV export reads attributes back).
    case '\r': out += "&#13;"; break;
    case '\t':
    case '\n': out += c; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        out += "\xEF\xBF\xBD"; // U+FFFD: control characters are parse errors in HTML text
      else
        out += c;
    }
  }
  return out;
}

} // namespace kbaudit::annotations
