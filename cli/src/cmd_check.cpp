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
  if (!args || args->positionals().size() != 1) {
    err << "kbaudit check: " << (args ? "expected exactly one FILE or RUN_DIR" : error) << "\n";
    return kExitUsage;
  }
  const std::string format = args->value("format").value_or("text");
  if (format != "text" && format != "yaml" && format != "json" && format != "sarif") {
    err << "kbaudit check: --format must be text, yaml, json or sarif\n";
    return kExitUsage;
  }
  const fs::path input = args->positionals().front();
  std::error_code ec;
  if (!fs::exists(input, ec)) {
    err << "kbaudit check: " << input.string() << ": no such file or directory\n";
    return kExitUsage;
  }
  const std::optional<AuditOptions> options = auditOptionsFrom(*args, "problem", "check", err);
  if (!options)
    return kExitUsage;

  const annotations::Annotation a = auditRun(targetFor(input), *options);
  if (format == "yaml") out << annotations::toYaml(a);
  else if (format == "json") out << annotations::toJson(a);
  else if (format == "sarif") out << annotations::toSarif({a}, {artifactPath(targetFor(input).solution)}, options->docBaseUrl);
  else out << annotations::toText(a);

  if (a.verdict == "bug") {
    for (const Diagnostic &d : a.kbaudit.diagnostics)
      if (d.severity == Diagnostic::Severity::Error)
        err << "kbaudit check: " << input.string() << ": " << d.code << ": " << d.message << "\n";
    return kExitUsage;
  }
  return gated(a, options->failOn) ? kExitFlagged : kExitClean;
}

} // namespace kbaudit::cli
