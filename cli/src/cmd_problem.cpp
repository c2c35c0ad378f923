// `kbaudit problem DIR|FILE`: what kbaudit understood of a problem, so a maintainer can see
// which contract the precision and wrapper rules judge a run against.

#include "args.h"
#include "commands.h"

#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/problems/problem_context.h"

#include <cstdio>
#include <filesystem>
#include <ostream>

namespace kbaudit::cli {

namespace {

using annotations::terminalSafe;

/// Everything shown comes from problem.yaml, reference.py or file names: escaped for the terminal.
template <typename Range, typename Fn> std::string joined(const Range &items, Fn &&name) {
  std::string out;
  for (const auto &item : items)
    out += (out.empty() ? "" : ", ") + terminalSafe(std::string(name(item)));
  return out.empty() ? "-" : out;
}

std::string orDash(const std::string &s) { return s.empty() ? "-" : terminalSafe(s); }

/// `problem.yaml:7: warning: problem-yaml-type: ...`, as `check` prints diagnostics.
std::string diagnosticLine(const Diagnostic &d) {
  std::string line = terminalSafe(d.file);
  if (d.lines.valid())
    line.append(":").append(std::to_string(d.lines.begin));
  line.append(": ").append(severityName(d.severity)).append(": ").append(terminalSafe(d.code));
  return line.append(": ").append(terminalSafe(d.message));
}

std::string identity(const std::string &s) { return s; }

/// `fp32 0.01`, from problem.yaml, the KernelBench default or what GPU MODE's checker states.
std::string tolerances(const problems::ProblemContext &p) {
  std::string out;
  for (const auto &[dtype, value] : p.tolerance) {
    char number[32];
    std::snprintf(number, sizeof number, "%g", value);
    out += (out.empty() ? "" : ", ") + terminalSafe(dtype) + " " + number;
  }
  return out.empty() ? "-" : out;
}

} // namespace

int cmdProblem(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "problem", err);
  if (!args)
    return kExitUsage;
  if (args->positionals().size() != 1)
    return usageError("problem", "expected one PROBLEM_DIR or LEVEL_FILE", err);
  const std::string &where = args->positionals().front();
  std::error_code ec;
  if (!std::filesystem::exists(where, ec)) {
    err << "kbaudit problem: " << terminalSafe(where) << " does not exist\n";
    return kExitUsage;
  }
  problems::ProblemContext p = problems::loadProblem(where);
  // The suite a run against this problem is judged by when nothing else names one (a run's
  // metadata, a table row, its entry point or --suite can): its harness facts fill what the
  // problem leaves out, so they are shown as a run would see them.
  problems::SuiteSignals signals;
  signals.layout = p.layout;
  signals.problemPath = p.layout == problems::ProblemLayout::Module ? p.reference.path : p.dir;
  const problems::ProfileSet profiles = problems::loadProfiles({});
  const problems::SuiteDetection suite = problems::detectSuite(profiles, signals);
  if (suite.profile)
    problems::applyProfile(p, *suite.profile);
  const problems::ReferenceSummary &r = p.reference;
  out << "problem:        " << terminalSafe(p.name)
      << (p.displayName.empty() ? "" : " (" + terminalSafe(p.displayName) + ")") << "\n"
      << "precision:      " << orDash(p.precision) << " -> contract "
      << (p.contractDtype().empty() ? "unknown" : p.contractDtype()) << "\n"
      << "regime:         " << orDash(p.regime) << "\n"
      << "tolerance:      " << tolerances(p) << "\n"
      << "suite:          " << (suite.profile ? suite.profile->id + " (" + suite.reason + ")" : std::string("-")) << "\n"
      << "weights:        " << problems::weightSharingName(p.weights)
      << (p.lenientStateLoad() ? " (load_state_dict strict=False)" : "") << "\n"
      << "reference:      " << (r.found ? terminalSafe(r.path.string()) : "none") << "\n"
      << "entry point:    " << orDash(r.entry) << "\n"
      << "dominant ops:   " << joined(r.dominantOps, problems::opClassName) << "\n"
      << "input dtypes:   " << joined(r.inputDtypes, [](const problems::DtypeUse &u) { return u.dtype; }) << "\n"
      << "weight dtypes:  " << joined(r.weightDtypes, [](const problems::DtypeUse &u) { return u.dtype; }) << "\n"
      << "forbidden:      " << joined(p.allForbidden(), identity) << "\n";
  if (p.policy) {
    out << "policy:         " << p.policy->file << " (" << p.policy->suite << ")\n"
        << "  promise:      " << p.policy->promise << "\n"
        << "  requires:     " << joined(p.policy->requiredInstructions, identity) << "\n"
        << "  libraries:    " << joined(p.policy->forbiddenLibraries, identity) << " (forbidden)\n"
        << "  allowed ops:  " << joined(p.policy->allowedLibraryOps, problems::opClassName) << "\n"
        << "  compile:      " << (p.policy->compileForbidden ? "forbidden" : "allowed") << "\n";
  }
  // What kbaudit could not read as the problem states it (type errors in problem.yaml, a
  // reference.py that does not parse): each run audited against this problem carries them too.
  for (const Diagnostic &d : p.diagnostics)
    out << "diagnostic:     " << diagnosticLine(d) << "\n";
  return kExitClean;
}

} // namespace kbaudit::cli
