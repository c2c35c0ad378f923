// kbaudit suites: the suite profiles kbaudit judges runs by (shipped and the user's own), one
// profile's page, or every page written to a folder (docs/suites).

#include "args.h"
#include "commands.h"
#include "suggest.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/problems/suite_profile.h"

#include <filesystem>
#include <iomanip>
#include <ostream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

int cmdSuites(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "suites", err);
  if (!args)
    return kExitUsage;
  if (args->positionals().size() > 1)
    return usageError("suites", "expected at most one suite ID", err);
  std::vector<fs::path> dirs;
  for (const std::string &d : args->list("suites"))
    dirs.push_back(d);
  const problems::ProfileSet set = problems::loadProfiles(dirs);
  if (!set.errors.empty()) {
    for (const problems::ProfileError &e : set.errors)
      err << "kbaudit suites: " << annotations::terminalSafe(e.text()) << "\n";
    return kExitUsage;
  }
  if (args->positionals().size() == 1) {
    const problems::SuiteProfile *p = set.find(args->positionals().front());
    if (!p) {
      std::vector<std::string> ids;
      for (const problems::SuiteProfile &profile : set.profiles)
        ids.push_back(profile.id);
      err << "kbaudit suites: no suite profile '" << annotations::terminalSafe(args->positionals().front()) << "'"
          << annotations::terminalSafe(didYouMean(args->positionals().front(), ids)) << "\n";
      return kExitUsage;
    }
    out << problems::renderSuiteDoc(*p);
    return kExitClean;
  }
  if (auto docs = args->value("docs")) {
    for (const problems::SuiteProfile &p : set.profiles) {
      const fs::path page = fs::path(*docs) / (p.id + ".md");
      std::string writeError;
      if (!source::writeFileAtomically(page, problems::renderSuiteDoc(p), writeError)) {
        err << "kbaudit suites: " << annotations::terminalSafe(writeError) << "\n";
        return kExitUsage;
      }
      out << annotations::terminalSafe(page.string()) << "\n";
    }
    return kExitClean;
  }
  out << std::left << std::setw(18) << "ID" << std::setw(9) << "VERSION" << std::setw(9) << "MANDATE" << std::setw(14)
      << "WEIGHTS"
      << "PROFILE\n";
  for (const problems::SuiteProfile &p : set.profiles)
    out << std::setw(18) << annotations::terminalSafe(p.id) << std::setw(9) << p.version << std::setw(9)
        << annotations::terminalSafe(p.mandate) << std::setw(14) << problems::weightSharingName(p.weights)
        << annotations::terminalSafe(p.builtin ? p.file + " (built in)" : p.file) << "\n";
  return kExitClean;
}

} // namespace kbaudit::cli
