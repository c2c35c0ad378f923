#include "kbaudit/semantic/license_header.h"

#include <algorithm>

namespace kbaudit::semantic {

namespace {

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

} // namespace

bool isLicenseLine(std::string_view line) {
  return contains(line, "Copyright") || contains(line, "SPDX-") || contains(line, "(c)") || contains(line, "(C)");
}

std::vector<LicenseLine> licenseLines(const Facts &f) {
  std::vector<LicenseLine> out;
  const auto consider = [&](std::string_view line, unsigned at) {
    if (at != 0 && isLicenseLine(line))
      out.push_back({line, at});
  };
  const SourceFile &src = f.source;
  for (unsigned n = 1; n <= src.lineCount(); ++n)
    consider(src.line(n), n);
  // Embedded sources as recovered (decoded, joined, on one escaped line): their lines, mapped
  // back to the solution.py line they come from.
  for (const embed::EmbeddedSource &s : f.embedded.sources) {
    if (s.file != "solution.py")
      continue;
    unsigned n = 1;
    for (std::size_t at = 0; at < s.text.size(); ++n) {
      const std::size_t nl = s.text.find('\n', at);
      const std::size_t end = nl == std::string::npos ? s.text.size() : nl;
      consider(std::string_view(s.text).substr(at, end - at), s.mapLine(n));
      at = end + 1;
    }
  }
  return out;
}

LicenseHeader licenseHeader(std::span<const LicenseLine> lines, std::span<const std::string_view> marks) {
  LicenseHeader out;
  for (const LicenseLine &l : lines)
    for (std::string_view mark : marks)
      if (contains(l.text, mark)) {
        if (std::find(out.lines.begin(), out.lines.end(), l.line) == out.lines.end())
          out.lines.push_back(l.line);
        if (out.firstText.empty()) {
          const std::size_t start = l.text.find_first_not_of(" \t#/*\"'");
          out.firstText = std::string(l.text.substr(start == std::string_view::npos ? 0 : start, 120));
        }
        break;
      }
  std::sort(out.lines.begin(), out.lines.end());
  return out;
}

LicenseHeader licenseHeader(const Facts &f, std::span<const std::string_view> marks) {
  if (marks.empty())
    return {};
  return licenseHeader(licenseLines(f), marks);
}

} // namespace kbaudit::semantic
