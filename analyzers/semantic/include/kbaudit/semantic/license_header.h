#pragma once

// License headers in solution.py: comments are not facts, so the lines that state a copyright
// are read here from the checked text, for WRAP006's question of whether a vendored library's
// own header was carried over.

#include "kbaudit/facts.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// `line` states a copyright or SPDX tag: it contains `Copyright`, `SPDX-`, `(c)` or `(C)`.
/// Why: a header naming the authors without such a statement is credit, not a license.
bool isLicenseLine(std::string_view line);

/// The license lines of a file that name one of some authors.
struct LicenseHeader {
  std::vector<unsigned> lines; ///< 1-indexed, in file order
  std::string firstText;       ///< the first one from its first character not in ` \t#/*"'`, at most 120 bytes
};

/// The lines of solution.py that isLicenseLine, in file order, then those of its embedded
/// sources as recovered (decoded, joined), each with the solution.py line it maps to.
struct LicenseLine {
  std::string_view text; ///< into the Facts it was read from
  unsigned line = 0;
};
std::vector<LicenseLine> licenseLines(const Facts &f);

/// Every line of solution.py that isLicenseLine and contains one of `marks` (each line counted
/// once); empty when `marks` is.
/// Why: a copyright line naming a library's authors shows its source was pasted in.
LicenseHeader licenseHeader(const Facts &f, std::span<const std::string_view> marks);
/// The same over licenseLines(f), read once for several sets of marks.
LicenseHeader licenseHeader(std::span<const LicenseLine> lines, std::span<const std::string_view> marks);

} // namespace kbaudit::semantic
