#include "args.h"
#include "commands.h"
#include "runs.h"

#include "kbaudit/annotations/formats.h"
#include "kbaudit/annotations/sarif.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"

#include <filesystem>
#include <ostream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

/// The solution's path as code-scanning tools resolve it: relative to the current directory
/// (the repository checkout in CI) when it lies below it.
std::string artifactPath(const fs::path &solution) {
  std::error_code ec;
  const fs::path rel = fs::relative(fs::absolute(solution, ec), fs::current_path(ec), ec);
  if (ec || rel.empty() || *rel.begin() == "..")
    return solution.generic_string();
  return rel.generic_string();
}

} // namespace

int cmdCheck(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  std::string error;
  std::set<std::string> valued = {"problem", "format", "select", "ignore"};
  valued.insert(kRuntimeOptions.begin(), kRuntimeOptions.end());
  const auto args = Args::parse(argv, valued, kSharedFlags, error);
  if (!args || args->positionals().empty()) {
    err << "kbaudit check: " << (args ? "expected a FILE or RUN_DIR" : error) << "\n";
    return kExitUsage;
  }
  const std::string format = args->value("format").value_or("text");
  if (format != "text" && format != "yaml" && format != "json" && format != "sarif") {
    err << "kbaudit check: --format must be text, yaml, json or sarif\n";
    return kExitUsage;
  }
  // Several files (as a pre-commit hook passes them) are fine for the formats that can hold
  // several results; yaml and json are one annotation document.
  if (args->positionals().size() > 1 && (format == "yaml" || format == "json")) {
    err << "kbaudit check: --format " << format << " takes one FILE or RUN_DIR\n";
    return kExitUsage;
  }
  std::error_code ec;
  for (const std::string &input : args->positionals())
    if (!fs::exists(input, ec)) {
      err << "kbaudit check: " << input << ": no such file or directory\n";
      return kExitUsage;
    }
  const std::optional<AuditOptions> options = auditOptionsFrom(*args, "problem", "check", err);
  if (!options)
    return kExitUsage;

  std::vector<annotations::Annotation> all;
  std::vector<std::string> artifacts;
  int code = kExitClean;
  for (const std::string &input : args->positionals()) {
    const RunTarget target = targetFor(input);
    annotations::Annotation a = auditRun(target, *options);
    if (a.verdict == "bug") {
      for (const Diagnostic &d : a.kbaudit.diagnostics)
        if (d.severity == Diagnostic::Severity::Error)
          err << "kbaudit check: " << input << ": " << d.code << ": " << d.message << "\n";
      code = kExitUsage;
    } else if (gated(a, options->failOn) && code == kExitClean) {
      code = kExitFlagged;
    }
    if (format == "yaml") out << annotations::toYaml(a);
    else if (format == "json") out << annotations::toJson(a);
    else if (format == "text") out << annotations::toText(a);
    artifacts.push_back(artifactPath(target.solution));
    all.push_back(std::move(a));
  }
  if (format == "sarif")
    out << annotations::toSarif(all, artifacts, options->docBaseUrl);
  return code;
}

} // namespace kbaudit::cli
