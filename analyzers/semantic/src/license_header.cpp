#include "kbaudit/semantic/license_header.h"

namespace kbaudit::semantic {

namespace {

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

} // namespace

bool isLicenseLine(std::string_view line) {
  return contains(line, "Copyright") || contains(line, "SPDX-") || contains(line, "(c)") || contains(line, "(C)");
}

LicenseHeader licenseHeader(const Facts &f, std::span<const std::string_view> marks) {
  LicenseHeader out;
  if (marks.empty())
    return out;
  const SourceFile &src = f.source;
  for (unsigned n = 1; n <= src.lineCount(); ++n) {
    const std::string_view line = src.line(n);
    if (!isLicenseLine(line))
      continue;
    for (std::string_view mark : marks)
      if (contains(line, mark)) {
        out.lines.push_back(n);
        if (out.firstText.empty()) {
          const std::size_t start = line.find_first_not_of(" \t#/*\"'");
          out.firstText = std::string(line.substr(start == std::string_view::npos ? 0 : start, 120));
        }
        break;
      }
  }
  return out;
}

} // namespace kbaudit::semantic
