// The traces of a library's source in a solution (vendored_source.h).

#include "kbaudit/semantic/vendored_source.h"

#include "kbaudit/semantic/license_header.h"

#include <algorithm>
#include <set>

namespace kbaudit::semantic {
namespace {

bool listed(std::span<const std::string_view> list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

} // namespace

VendoredTraces vendoredTraces(const Facts &f, std::span<const LicenseLine> license, const std::vector<Definition> &defs,
                              const SourceSignature &signature) {
  VendoredTraces out;
  // Comments are not facts: the license lines are read by licenseHeader.
  const LicenseHeader header = licenseHeader(license, signature.licenseMarks);
  for (unsigned n : header.lines)
    out.licenseLines.push_back({n, n});
  out.licenseText = header.firstText;

  for (std::string_view phrase : signature.phrases)
    for (const py::StringConstant &s : f.python.strings) {
      if (s.value.value.find(phrase) == std::string::npos)
        continue;
      out.phrases.emplace_back(phrase);
      if (!out.phraseLines.valid())
        out.phraseLines = s.lines;
      break;
    }

  std::set<std::string> seen;
  for (const Definition &d : defs) {
    if (!seen.insert(d.name).second)
      continue;
    if (listed(signature.definitions, d.name))
      out.strong.push_back(d);
    else if (listed(signature.common, d.name))
      out.common.push_back(d);
  }
  return out;
}

} // namespace kbaudit::semantic
