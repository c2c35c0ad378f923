#pragma once

// The traces a library's own source leaves in a solution that carries it instead of
// importing it: the library authors' license header, phrases of its docstrings, and the
// names of its kernels and helpers defined in the file. WRAP006 weighs them per library; the
// signature (what to look for) is the rule's data, what the file carries is answered here.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/definitions.h"
#include "kbaudit/semantic/license_header.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// What marks one library's source.
struct SourceSignature {
  std::span<const std::string_view> licenseMarks; ///< author names a license line of the library holds
  std::span<const std::string_view> phrases;      ///< phrases of its docstrings
  std::span<const std::string_view> definitions;  ///< names characteristic of it
  std::span<const std::string_view> common;       ///< its names a solution may plausibly choose itself
};

/// The traces of one signature in a solution.
struct VendoredTraces {
  std::vector<LineRange> licenseLines; ///< license lines naming the authors (licenseHeader)
  std::string licenseText;             ///< the first of them, as LicenseHeader::firstText
  std::vector<std::string> phrases;    ///< phrases some string constant holds, in signature order
  LineRange phraseLines;               ///< the string holding the first of them
  std::vector<Definition> strong;      ///< definitions of characteristic names, each name once
  std::vector<Definition> common;      ///< definitions of common names, each name once

  /// License, each phrase and each characteristic name: common names are no signal alone.
  unsigned independentSignals() const {
    return static_cast<unsigned>(strong.size() + phrases.size() + (licenseLines.empty() ? 0 : 1));
  }
};

/// The traces of `signature` in the file whose definitions (semantic::definitions) are
/// `defs`. Phrases are searched in the values of string constants, not in comments.
VendoredTraces vendoredTraces(const Facts &f, std::span<const LicenseLine> license, const std::vector<Definition> &defs,
                              const SourceSignature &signature);

} // namespace kbaudit::semantic
