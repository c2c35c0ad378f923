// `kbaudit problem DIR|FILE`: what kbaudit understood of a problem, so a maintainer can see
// which contract the precision and wrapper rules judge a run against.

#include "commands.h"

#include "kbaudit/cli/cli.h"
#include "kbaudit/problems/problem_context.h"

#include <filesystem>
#include <ostream>

namespace kbaudit::cli {

namespace {

template <typename Range, typename Fn> std::string joined(const Range &items, Fn &&name) {
  std::string out;
  for (const auto &item : items)
    out += (out.empty() ? "" : ", ") + std::string(name(item));
  return out.empty() ? "-" : out;
}

std::string identity(const std::string &s) { return s; }

} // namespace

int cmdProblem(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  if (argv.size() != 1) {
    err << "kbaudit problem: usage: kbaudit problem PROBLEM_DIR|LEVEL_FILE.py\n";
    return kExitUsage;
  }
  std::error_code ec;
  if (!std::filesystem::exists(argv.front(), ec)) {
    err << "kbaudit problem: " << argv.front() << " does not exist\n";
    return kExitUsage;
  }
  const problems::ProblemContext p = problems::loadProblem(argv.front());
  const problems::ReferenceSummary &r = p.reference;
  out << "problem:        " << p.name << (p.displayName.empty() ? "" : " (" + p.displayName + ")") << "\n"
      << "precision:      " << (p.precision.empty() ? "-" : p.precision) << " -> contract "
      << (p.contractDtype().empty() ? "unknown" : p.contractDtype()) << "\n"
      << "regime:         " << (p.regime.empty() ? "-" : p.regime) << "\n"
      << "reference:      " << (r.found ? r.path.string() : "none") << "\n"
      << "entry point:    " << (r.entry.empty() ? "-" : r.entry) << "\n"
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
  for (const Diagnostic &d : p.diagnostics)
    out << "note:           " << d.code << ": " << d.message << "\n";
  return kExitClean;
}

} // namespace kbaudit::cli
