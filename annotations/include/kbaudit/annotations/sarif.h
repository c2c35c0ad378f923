#pragma once

// SARIF 2.1.0 as GitHub code scanning reads it (docs/sarif.md): every rule in the tool driver
// with descriptions within GitHub's limits, precision, problem.severity and (for rules that
// attack the grader or its timer) security-severity; one result per finding with its region
// (lines and columns), a partial fingerprint that survives unrelated edits, baseline-accepted
// findings as external suppressions, `%SRCROOT%` declared in originalUriBaseIds, and
// kbaudit's verdicts in the run's properties.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/annotations/checked_file.h"

#include <string>
#include <vector>

namespace kbaudit::annotations {

/// GitHub's documented limits for a rule (reportingDescriptor): name and the two descriptions.
/// Lengths count UTF-16 code units, as GitHub's JSON does.
inline constexpr std::size_t kSarifMaxRuleName = 255;
inline constexpr std::size_t kSarifMaxDescription = 1024;

/// The partialFingerprints key kbaudit writes ("kbaudit/v1"): a hash of the rule id, the
/// finding's first line with its whitespace normalised, and how many earlier findings of that
/// rule in that file have the same line: no line numbers, so an edit elsewhere keeps it.
inline constexpr const char *kSarifFingerprintKey = "kbaudit/v1";

/// `docBaseUrl` prefixes "<ID>.md" (helpUri); "" writes no link.
std::string toSarif(const std::vector<CheckedFile> &files, const std::string &docBaseUrl = {});

/// Without source texts: no columns, and fingerprints from the message instead of the line.
/// `artifactPaths[i]` is where annotation i's solution lies relative to the checkout.
std::string toSarif(const std::vector<Annotation> &annotations, const std::vector<std::string> &artifactPaths,
                    const std::string &docBaseUrl = {});

/// `text` cut to at most `maxUnits` UTF-16 code units: at the last sentence end that fits,
/// else at the last space, with "…" appended when anything was cut. Never splits a code point.
std::string clipText(const std::string &text, std::size_t maxUnits);

/// The length of `text` in UTF-16 code units (an invalid byte counts as one).
std::size_t utf16Length(const std::string &text);

} // namespace kbaudit::annotations
