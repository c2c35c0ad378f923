// `kbaudit baseline FILE...`: accept what kbaudit finds in these solutions today, as ruff's
// --add-noqa or a semgrep baseline does, so a gate reports only what is new. The entries go
// into the maintainer's baseline file (never into the audited code), each with a reason and who
// accepted it; entries already there are kept, and a finding one already accepts is not added
// again.

#include "args.h"
#include "baseline.h"
#include "commands.h"
#include "isolated_audit.h"
#include "runs.h"

#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/source/atomic_write.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <ostream>
#include <set>

namespace kbaudit::cli {

namespace fs = std::filesystem;
using annotations::terminalSafe;

namespace {

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &utc);
  return buf;
}

std::string defaultWho() {
  for (const char *name : {"USER", "LOGNAME"})
    if (const char *v = std::getenv(name); v && *v)
      return v;
  return "kbaudit baseline";
}

} // namespace

int cmdBaseline(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "baseline", err);
  if (!args)
    return kExitUsage;
  const std::vector<std::string> &inputs = args->positionals();
  if (inputs.empty())
    return usageError("baseline", "expected the FILEs or RUN_DIRs whose findings to accept", err);
  std::error_code ec;
  for (const std::string &input : inputs)
    if (input == "-" || !fs::exists(input, ec)) {
      err << "kbaudit baseline: " << terminalSafe(input)
          << (input == "-" ? ": a baseline keys entries by run, so it takes files, not stdin" : ": no such file or directory")
          << "\n";
      return kExitUsage;
    }
  std::optional<AuditOptions> options = auditOptionsFrom(*args, "baseline", err);
  if (!options)
    return kExitUsage;
  const fs::path file = options->selectionInfo.baseline;
  if (file.empty())
    return usageError("baseline", "name the baseline to write: --baseline FILE (or baseline: in the config)", err);

  // The entries already there stay, and what they accept is marked accepted in the audit below.
  Baseline baseline;
  baseline.file = file;
  if (fs::exists(file, ec)) {
    std::string error;
    std::optional<Baseline> loaded = loadBaseline(file, error);
    if (!loaded) {
      err << "kbaudit baseline: " << terminalSafe(error) << "\n";
      return kExitUsage;
    }
    baseline = std::move(*loaded);
  }
  const std::size_t before = baseline.entries.size();
  options->baseline = baseline;
  const std::string reason =
      args->value("reason").value_or("present when this baseline was made (kbaudit baseline, " + today() + ")");
  const std::string who = args->value("who").value_or(defaultWho());

  int code = kExitClean;
  unsigned findings = 0;
  std::set<std::pair<std::string, std::string>> have; // (run, rule)
  for (const BaselineEntry &e : baseline.entries)
    if (!e.run.empty())
      have.emplace(e.run, e.rule);
  for (const std::string &input : inputs) {
    const annotations::Annotation a = auditIsolated(targetFor(input), *options);
    if (a.verdict == "bug" && a.kbaudit.findings.empty()) {
      // Nothing to accept, and nothing was proven: say so rather than write a baseline that
      // looks complete.
      err << "kbaudit baseline: " << terminalSafe(input) << ": not audited whole ("
          << terminalSafe(a.kbaudit.incomplete.empty() ? a.summary : a.kbaudit.incomplete.front()) << ")\n";
      code = kExitUsage;
      continue;
    }
    for (const rules::Finding &f : a.kbaudit.findings) {
      if (f.accepted)
        continue;
      ++findings;
      if (have.emplace(a.runId, f.rule).second)
        baseline.entries.push_back(BaselineEntry{a.runId, "", f.rule, reason, who});
    }
  }
  std::string error;
  if (!source::writeFileAtomically(file, baselineYaml(baseline), error)) {
    err << "kbaudit baseline: cannot write " << terminalSafe(file.string()) << ": " << terminalSafe(error) << "\n";
    return kExitInternal;
  }
  out << "kbaudit baseline: " << (baseline.entries.size() - before) << " new entr"
      << (baseline.entries.size() - before == 1 ? "y" : "ies") << " for " << findings << " finding"
      << (findings == 1 ? "" : "s") << " in " << inputs.size() << " input" << (inputs.size() == 1 ? "" : "s") << "; "
      << baseline.entries.size() << " in " << terminalSafe(file.string()) << "\n";
  return code;
}

} // namespace kbaudit::cli
