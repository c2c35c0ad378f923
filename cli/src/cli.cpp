#include "kbaudit/cli/cli.h"

#include "build_version.h"
#include "command_spec.h"
#include "commands.h"
#include "runs.h"
#include "suggest.h"

#include "kbaudit/annotations/terminal_text.h"

#include <ostream>

namespace kbaudit::cli {

namespace {

std::vector<std::string> commandNames() {
  std::vector<std::string> names;
  for (const CommandSpec &c : commandSpecs())
    names.push_back(c.name);
  return names;
}

/// "unknown command 'chekc' (did you mean 'check'?)" and the command list.
int unknownCommand(const std::string &prefix, const std::string &name, std::ostream &err) {
  err << prefix << "unknown command '" << annotations::terminalSafe(name) << "'"
      << annotations::terminalSafe(didYouMean(name, commandNames())) << "\n"
      << overview();
  return kExitUsage;
}

} // namespace

int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  if (args.empty()) {
    err << overview();
    return kExitUsage;
  }
  const std::string &cmd = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    if (rest.empty()) {
      out << overview();
      return kExitClean;
    }
    if (asksForHelp(rest)) { // `help --help`
      out << helpPage(*findCommand("help"));
      return kExitClean;
    }
    if (const CommandSpec *spec = findCommand(rest.front())) {
      out << helpPage(*spec);
      return kExitClean;
    }
    return unknownCommand("kbaudit help: ", rest.front(), err);
  }
  // Handled here, before any command parses its options, so every command answers --help the
  // same way ruff and semgrep do: usage on stdout, exit 0.
  if (const CommandSpec *spec = findCommand(cmd); spec && asksForHelp(rest)) {
    out << helpPage(*spec);
    return kExitClean;
  }
  if (cmd == "check") return cmdCheck(rest, out, err);
  if (cmd == "audit") return cmdAudit(rest, out, err);
  if (cmd == "baseline") return cmdBaseline(rest, out, err);
  if (cmd == "rules") return cmdRules(rest, out, err);
  if (cmd == "suites") return cmdSuites(rest, out, err);
  if (cmd == "explain") return cmdExplain(rest, out, err);
  if (cmd == "docs") return cmdDocs(rest, out, err);
  if (cmd == "score") return cmdScore(rest, out, err);
  if (cmd == "report") return cmdReport(rest, out, err);
  if (cmd == "problem") return cmdProblem(rest, out, err);
  if (cmd == "probe") return cmdProbe(rest, out, err);
  if (cmd == "cuda-translate") return cmdCudaTranslate(rest, out, err);
  if (cmd == "version" || cmd == "--version" || cmd == "-V") {
    out << "kbaudit " << versionLine() << "\n";
    return kExitClean;
  }
  return unknownCommand("kbaudit: ", cmd, err);
}

} // namespace kbaudit::cli
