// Conversions shared by the report writer's parts (report_view.h).

#include "report_view.h"

#include <cstdio>

namespace kbaudit::annotations::view {

Data list() { return Data(Data::type::list); }

Data optional(const std::string &text) { return text.empty() ? Data(false) : Data(text); }

std::string num(std::size_t n) { return std::to_string(n); }

std::string fixed(double v, const char *fmt) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string percent(double v) { return fixed(100.0 * v, "%.1f%%"); }

std::string verdictClass(const std::string *verdict) {
  if (!verdict)
    return "v-none";
  return knownVerdict(*verdict) ? "v-" + *verdict : "v-other";
}

std::string lines(const LineRange &r) {
  if (!r.valid())
    return "\u2014";
  return r.begin == r.end ? std::to_string(r.begin) : std::to_string(r.begin) + "\u2013" + std::to_string(r.end);
}

Data parts(const std::string &s) {
  Data out = list();
  std::string piece;
  for (const char c : s) {
    piece += c;
    if (c == '_' || c == '/') {
      Data p;
      p.set("part", piece);
      out.push_back(p);
      piece.clear();
    }
  }
  if (!piece.empty() || s.empty()) {
    Data p;
    p.set("part", piece);
    out.push_back(p);
  }
  return out;
}

} // namespace kbaudit::annotations::view
