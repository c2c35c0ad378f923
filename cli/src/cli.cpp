#include "kbaudit/cli/cli.h"

#include "build_version.h"
#include "commands.h"
#include "runs.h"
#include "usage.h"

#include "kbaudit/annotations/terminal_text.h"

#include <ostream>

namespace kbaudit::cli {

int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  if (args.empty()) {
    err << overallUsage();
    return kExitUsage;
  }
  const std::string &cmd = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    if (rest.empty()) {
      out << overallUsage();
      return kExitClean;
    }
    if (asksForHelp(rest)) { // `help --help`
      out << commandUsage(*findCommandHelp("help"));
      return kExitClean;
    }
    if (const CommandHelp *help = findCommandHelp(rest.front())) {
      out << commandUsage(*help);
      return kExitClean;
    }
    err << "kbaudit help: unknown command '" << annotations::terminalSafe(rest.front()) << "'\n" << overallUsage();
    return kExitUsage;
  }
  // Handled here, before any command parses its options, so every command (audit too, whose
  // parser is elsewhere) answers --help the same way ruff and semgrep do: usage on stdout, exit 0.
  if (const CommandHelp *help = findCommandHelp(cmd); help && asksForHelp(rest)) {
    out << commandUsage(*help);
    return kExitClean;
  }
  if (cmd == "check") return cmdCheck(rest, out, err);
  if (cmd == "audit") return cmdAudit(rest, out, err);
  if (cmd == "rules") return cmdRules(rest, out, err);
  if (cmd == "suites") return cmdSuites(rest, out, err);
  if (cmd == "explain") return cmdExplain(rest, out, err);
  if (cmd == "docs") return cmdDocs(rest, out, err);
  if (cmd == "score") return cmdScore(rest, out, err);
  if (cmd == "report") return cmdReport(rest, out, err);
  if (cmd == "problem") return cmdProblem(rest, out, err);
  if (cmd == "probe") return cmdProbe(rest, out, err);
  if (cmd == "cuda-translate") return cmdCudaTranslate(rest, out, err);
  if (cmd == "version" || cmd == "--version") {
    out << "kbaudit " << versionLine() << "\n";
    return kExitClean;
  }
  err << "kbaudit: unknown command '" << annotations::terminalSafe(cmd) << "'\n" << overallUsage();
  return kExitUsage;
}

} // namespace kbaudit::cli
