#pragma once

// The other renderings of an annotation: JSON for tools, text for a terminal, GitHub Actions
// workflow commands for CI logs, and per-rule statistics.

#include "kbaudit/annotations/annotation.h"

#include <string>
#include <vector>

namespace kbaudit::annotations {

/// `schema_version` of `toJson`'s document (docs/cli.md, "JSON output"). Adding a field keeps
/// it; removing or renaming one, or changing what a field means, bumps it.
inline constexpr int kJsonSchemaVersion = 1;

std::string toJson(const Annotation &a);
/// Several annotations as one JSON array of toJson's objects (`check --output-format json` with
/// more than one input, and `audit --output-format json`).
std::string toJsonList(const std::vector<Annotation> &annotations);
/// A compact human report: verdict, findings with `solution.py:LINE`, diagnostics. Everything
/// taken from input is passed through terminalSafe.
std::string toText(const Annotation &a);

/// GitHub Actions workflow commands, one line per finding a baseline has not accepted:
/// `::error` for a finding that decides the verdict, `::notice` for one listed for review, and
/// `::error` for each error diagnostic (the file could not be audited). `artifactPath` is the
/// `file=` property (the path relative to the checkout).
std::string toGithub(const Annotation &a, const std::string &artifactPath);

/// GitHub's escaping of a workflow command's message (`%`, CR, LF) and of a property value
/// (also `:` and `,`); other control characters are then escaped as terminalSafe does.
std::string githubMessage(const std::string &s);
std::string githubProperty(const std::string &s);

/// One line per rule with findings in `annotations`, most findings first (ties by rule id):
/// count, rule id, rule name, as ruff's --statistics. Findings a baseline accepted are not counted.
std::string findingStatistics(const std::vector<Annotation> &annotations);

} // namespace kbaudit::annotations
