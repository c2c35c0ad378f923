#pragma once

// The ruff-style output options `check` and `audit` share: --output-format (alias --format),
// --output-file and --color, and the rendering of several audited files in the chosen format.

#include "runs.h"

#include "kbaudit/annotations/checked_file.h"
#include "kbaudit/annotations/report_formats.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::cli {

class Args;

struct OutputOptions {
  std::string format; ///< "" (audit without --output-format: its summary only)
  std::optional<std::filesystem::path> file;
  annotations::TextStyle style;
  /// One input rendered as json: the annotation object `check` has always printed, not an array.
  bool singleJsonObject = false;
  /// --new-only: findings a baseline accepted are left out of the report.
  bool newOnly = false;

  /// Formats that stay one parseable document (statistics and summaries go to stderr).
  bool machineReadable() const { return format == "json" || format == "yaml" || format == "sarif" || format == "junit"; }
};

/// Reads --output-format/--format (every value given must agree; CLI11 checked each is a format),
/// --output-file and --color. `stdoutIsTerminal`
/// decides `--color auto` together with NO_COLOR (set and non-empty: no colour). nullopt after
/// writing why to `err`, prefixed by `command`.
std::optional<OutputOptions> outputOptionsFrom(const Args &args, const std::string &command, const std::string &defaultFormat,
                                               bool stdoutIsTerminal, std::ostream &err);

/// The annotation with the path to show and the text of the files its findings name (read from
/// the run; files over 8 MiB or unreadable are left out, and then have no columns).
annotations::CheckedFile checkedFile(annotations::Annotation a, const RunTarget &target, const std::string &path);

/// The solution's path as code-scanning tools resolve it: relative to the current directory
/// (the repository checkout in CI) when it lies below it.
std::string artifactPath(const std::filesystem::path &solution);

/// Every file in `options.format` (not ""), as one document.
std::string renderFiles(const std::vector<annotations::CheckedFile> &files, const OutputOptions &options,
                        const std::string &docBaseUrl);

/// Writes `text` to --output-file (atomically) or `out`; false after writing why to `err`.
bool emitOutput(const std::string &text, const OutputOptions &options, std::ostream &out, std::ostream &err,
                const std::string &command);

} // namespace kbaudit::cli
