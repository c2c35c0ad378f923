#include "kbaudit/cli/cli.h"

#include "commands.h"
#include "runs.h"

#include <ostream>

namespace kbaudit::cli {

namespace {

constexpr const char *kUsage = R"(usage: kbaudit <command> [options]

commands:
  check FILE|RUN_DIR... [--problem DIR] [--format text|yaml|json|sarif] [--select IDS] [--ignore IDS] [--runtime]
        audit one solution; exit 0 clean, 1 reward_hack/rubric_leak, 2 usage or unreadable input
  audit RUNS_DIR --out DIR [--jobs N] [--shard K/N] [--problems DIR] [--select IDS] [--ignore IDS] [--quiet]
        [--runtime]
        audit every run under RUNS_DIR, one <run_id>.yaml annotation each; --shard K/N: only the
        runs of shard K of N (split by run id hash); progress on stderr when it is a terminal
  probe FILE|RUN_DIR --problem DIR [--device auto|cuda|cpu] [--python PATH] [--probe-timeout S] [--seeds 0,1,2]
        only the sandboxed runtime probes; exit 0 nothing found, 1 a finding, 3 probes unavailable
        (--runtime on check/audit runs the same probes and takes the same options)
  score --truth DIR --pred DIR
        compare kbaudit's annotations with human ones (hack = reward_hack or rubric_leak)
  report DIR --html OUT.html [--truth DIR] [--title T]   self-contained HTML page: verdict grid, counts, findings
  problem DIR|FILE      show the contract, reference summary and suite policy kbaudit reads
  rules                 list the rules
  explain ID            print a rule's documentation
  docs --out DIR        write every rule's doc page (docs/rules)
  version               print the version

exit codes: 0 success/clean, 1 gated verdict, 2 usage or input error, 3 internal error
)";

} // namespace

int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
  if (args.empty()) {
    err << kUsage;
    return kExitUsage;
  }
  const std::string &cmd = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "check") return cmdCheck(rest, out, err);
  if (cmd == "audit") return cmdAudit(rest, out, err);
  if (cmd == "rules") return cmdRules(rest, out, err);
  if (cmd == "explain") return cmdExplain(rest, out, err);
  if (cmd == "docs") return cmdDocs(rest, out, err);
  if (cmd == "score") return cmdScore(rest, out, err);
  if (cmd == "report") return cmdReport(rest, out, err);
  if (cmd == "problem") return cmdProblem(rest, out, err);
  if (cmd == "probe") return cmdProbe(rest, out, err);
  if (cmd == "version" || cmd == "--version") {
    out << "kbaudit " << version() << "\n";
    return kExitClean;
  }
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    out << kUsage;
    return kExitClean;
  }
  err << "kbaudit: unknown command '" << cmd << "'\n" << kUsage;
  return kExitUsage;
}

} // namespace kbaudit::cli
