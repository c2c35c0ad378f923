// `kbaudit probe RUN --problem DIR`: only the sandboxed runtime probes, as a table.

#include "args.h"
#include "commands.h"
#include "runs.h"

#include "kbaudit/runtime/lifetime.h"

#include "kbaudit/annotations/runtime_evidence.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/cli/cli.h"

#include <filesystem>
#include <iomanip>
#include <ostream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

// What the probes report quotes the solution's own output (exception text, paths it touched).
namespace {
std::string t(const std::string &s) { return annotations::terminalSafe(s); }
} // namespace

int cmdProbe(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "probe", err); // --problem is required
  if (!args)
    return kExitUsage;
  if (args->positionals().size() != 1)
    return usageError("probe", "expected one FILE or RUN_DIR", err);
  std::error_code ec;
  const fs::path input = args->positionals().front();
  const fs::path problemDir = *args->value("problem");
  if (!fs::exists(input, ec) || !fs::is_directory(problemDir, ec)) {
    err << "kbaudit probe: " << t((fs::exists(input, ec) ? problemDir : input).string()) << " does not exist\n";
    return kExitUsage;
  }
  const std::optional<runtime::ProbeOptions> options = probeOptionsFrom(*args, "probe", err);
  if (!options)
    return kExitUsage;

  runtime::lifetime::removeStaleDirs(runtime::kProbeDirPrefix);
  problems::ProblemContext problem = problems::loadProblem(problemDir);
  if (const auto suite = args->value("suite")) {
    // The probes build and call the models as that suite's grader does (its profile's harness).
    const problems::ProfileSet profiles = problems::loadProfiles({});
    const problems::SuiteProfile *profile = profiles.find(*suite);
    if (!profile) {
      err << "kbaudit probe: no suite profile '" << t(*suite) << "' (kbaudit suites lists them)\n";
      return kExitUsage;
    }
    problems::applyProfile(problem, *profile);
  }
  const runtime::RuntimeReport r = runtime::runProbes(targetFor(input).solution, problem, *options);
  out << "outcome: " << t(r.outcome) << (r.reason.empty() ? "" : " (" + t(r.reason) + ")") << "\n"
      << "device:  " << (r.device.empty() ? "-" : t(r.device)) << ", torch " << (r.torchVersion.empty() ? "-" : t(r.torchVersion))
      << ", " << r.seconds << " s\n";
  for (const std::string &note : r.isolation)
    out << "sandbox: " << t(note) << "\n";
  for (const std::string &note : r.notes)
    out << "note:    " << t(note) << "\n";
  bool found = r.outcome == "aborted";
  for (const runtime::ProbeOutcome &p : r.probes) {
    found |= p.status == "finding";
    // Who says so: the judge (verified outside the solution's process), or only the worker the
    // solution shares, whose answer is a claim.
    out << std::left << std::setw(22) << t(p.name) << std::setw(9) << t(p.status) << std::setw(7)
        << (p.verified ? "judge" : "worker") << std::setw(9) << (p.rule.empty() ? "-" : t(p.rule)) << t(p.reason)
        << "\n";
  }
  for (const runtime::RuntimeEvent &e : r.events) {
    // A low-confidence event is listed for review, as its finding would be; it does not flag.
    found |= e.confidence != "low";
    const std::string rule(annotations::eventRule(e.kind));
    out << "event:   " << t(e.kind);
    if (!rule.empty() || !e.confidence.empty())
      out << " [" << (rule.empty() ? "-" : rule) << (e.confidence.empty() ? "" : ", " + t(e.confidence)) << "]";
    out << ": " << t(e.detail) << "\n";
  }
  if (r.outcome == "unavailable")
    return kExitInternal;
  return found ? kExitFlagged : kExitClean;
}

} // namespace kbaudit::cli
