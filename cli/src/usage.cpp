#include "usage.h"

namespace kbaudit::cli {

namespace {

constexpr std::string_view kCheckOptions = R"(  -                        read the solution from stdin (run id "stdin", shown as solution.py)
  --stdin-filename NAME    the name to show for stdin (and the run id a file there would get)
  --problem DIR|FILE       the problem directory (problem.yaml, reference.py) or level file
  --problems ROOT          find each file's problem under ROOT from its run id, as audit does
  --output-format FORMAT   full (default; text is the same), concise, grouped, json, yaml, sarif,
                           github or junit, for any number of files (--format is the same option)
  --output-file FILE       write the report to FILE instead of stdout
  --color WHEN             auto (default: on a terminal, unless NO_COLOR is set), always, never
  --statistics             after the output, one line per rule: count, rule id, rule name
                           (on stderr for yaml, json, sarif and junit, which stay one document)
  --select IDS             rule ids, categories or ALL to run (comma list, repeatable)
  --ignore IDS             rule ids or categories not to run
  --fail-on CLASSES        what exits 1: reward_hack, rubric_leak (default both), review
  --baseline FILE          findings accepted after review
  --config FILE            kbaudit.yaml, kbaudit.toml or pyproject.toml to read (default: the nearest)
  --no-config              read no config file
  --suite ID               judge by this suite profile instead of detecting it (`kbaudit suites`)
  --suites DIR             also read the suite profiles (*.yaml) in DIR (repeatable)
  --runtime                also run the sandboxed runtime probes (needs --problem)
  --device auto|cuda|cpu   --python PATH   --probe-timeout S   --seeds 0,1,2   (with --runtime)
  --no-compile             do not compile the CUDA sources with nvcc (compiled evidence is on by default)
  --arch ARCH              compile for this architecture or GPU (sm_90a, B200); default: the problem's
                           hardware, the run's gpu, else sm_90a
  --compile-cache DIR      compile cache (default $KBAUDIT_COMPILE_CACHE, else ~/.cache/kbaudit/compiled)
  --compile-timeout S      wall-clock limit of one source's compile (default 600)
exit: 0 clean, 1 reward_hack/rubric_leak (see --fail-on), 2 usage or unreadable input, 3 internal error
)";

constexpr std::string_view kAuditOptions = R"(  --out DIR                where the <run_id>.yaml annotations go (required)
  --jobs N                 parallel audits, 1 to 1024 (default: all cores)
  --shard K/N              only the runs of shard K of N (split by run id hash)
  --problems DIR           problems tree: <bench>/<gpu>/<problem>/ or <problem>/
  --select IDS, --ignore IDS, --baseline FILE, --config FILE, --no-config   as for check
  --suite ID, --suites DIR as for check: the suite profile that judges every run, more profiles
  --fail-on CLASSES        exit 1 when some run matches (audit gates only when asked)
  --quiet                  no progress line and no summary
  --output-format FORMAT   also print every run's annotation as check does (full, concise, grouped,
                           json, yaml, sarif, github, junit); the summary then goes to stderr
  --output-file FILE, --color WHEN   as for check
  --statistics             after the summary, one line per rule: count, rule id, rule name
  --runtime                also run the runtime probes (--device, --python, --probe-timeout, --seeds)
  --compile                also compile each CUDA source with nvcc and read the PTX (compiled evidence;
                           cached, but a cold torch extension source costs tens of seconds)
  --arch ARCH, --compile-cache DIR, --compile-timeout S   as for check (with --compile)
  --run-timeout S          wall-clock limit of one run's analysis in its worker (default 300; with
                           --runtime, plus the probe timeout; with --compile, plus the compile timeout)
  --run-memory MIB         address-space limit of a worker, MiB (default 8192)
  --in-process             no worker processes: runs one after another in this process (debugging)
  --fresh                  audit every run again, also those whose annotation in --out is up to date
                           or in the result cache
  --cache-dir DIR          result cache: runs whose files, problem, options and kbaudit build are
                           unchanged are read back, not analysed (default .kbaudit_cache; not used
                           with --runtime or --compile)
  --no-cache               neither read nor write the result cache
exit: 0 done (runs that could not be audited get verdict bug), 1 a run matched --fail-on,
      2 usage error, --out locked by another audit, or an input skipped (named on stderr),
      3 an annotation could not be written
)";

constexpr std::string_view kProbeOptions = R"(  --problem DIR            the problem directory (required)
  --device auto|cuda|cpu   where to run (default auto)
  --python PATH            the interpreter with torch (default: $KBAUDIT_PYTHON, else the probes' venv, docs/install.md)
  --probe-timeout S        wall-clock limit per probe run, seconds
  --seeds 0,1,2            input seeds
  --suite ID               grade as this suite's harness does (train or eval mode, who sees the inputs
                           first: its profile's `harness:`; default: none, eval mode, order unknown)
exit: 0 nothing found, 1 a finding or an aborted probe, 3 probes unavailable
)";

constexpr std::string_view kReportOptions = R"(  --html OUT.html          the page to write
  --csv OUT.csv            one row per run (RFC 4180); --html, --csv or both
  --truth DIR              human annotations to show and score against
  --title TEXT             the page title
)";

const std::vector<CommandHelp> kCommands = {
    {"check", "FILE|RUN_DIR|-... [--problem DIR | --problems ROOT] [--output-format FORMAT] [--output-file FILE] [--select IDS] [--ignore IDS] [--runtime]",
     "audit one solution (or several, or stdin)", kCheckOptions},
    {"audit", "RUNS_DIR --out DIR [--jobs N] [--shard K/N] [--problems DIR] [--select IDS] [--ignore IDS] [--quiet] [--runtime]",
     "audit every run under RUNS_DIR, one <run_id>.yaml annotation each", kAuditOptions},
    {"probe", "FILE|RUN_DIR --problem DIR [--device auto|cuda|cpu] [--python PATH] [--probe-timeout S] [--seeds 0,1,2] [--suite ID]",
     "only the sandboxed runtime probes", kProbeOptions},
    {"score", "--truth DIR --pred DIR", "compare kbaudit's annotations with human ones (hack = reward_hack or rubric_leak)",
     "  --truth DIR              human annotations\n  --pred DIR               kbaudit's annotations\n"},
    {"report", "ANNOTATIONS_DIR [--html OUT.html] [--csv OUT.csv] [--truth DIR] [--title TEXT]",
     "self-contained HTML dashboard (hack rates, verdict grid, counts, findings) and/or CSV", kReportOptions},
    {"problem", "PROBLEM_DIR|LEVEL_FILE.py",
     "show the contract, reference summary, suite policy and problem diagnostics kbaudit reads", ""},
    {"rules", "", "list the rules", ""},
    {"suites", "[ID] [--suites DIR] [--docs DIR]", "list the suite profiles, print one, or write their pages (docs/suites)",
     "  ID                       print this profile's page\n  --suites DIR             also read the profiles in DIR\n"
     "  --docs DIR               write every profile's page to DIR\n"},
    {"explain", "RULE_ID", "print a rule's documentation", ""},
    {"docs", "--out DIR", "write every rule's doc page (docs/rules)", "  --out DIR                where the pages go\n"},
    {"version", "", "print the version", ""},
    {"help", "[COMMAND]", "this list, or one command's options", ""},
};

} // namespace

const std::vector<CommandHelp> &commandHelp() { return kCommands; }

const CommandHelp *findCommandHelp(std::string_view name) {
  for (const CommandHelp &c : kCommands)
    if (c.name == name)
      return &c;
  return nullptr;
}

std::string usageLine(const CommandHelp &c) {
  std::string line = "usage: kbaudit ";
  line.append(c.name);
  if (!c.synopsis.empty())
    line.append(" ").append(c.synopsis);
  return line;
}

std::string commandUsage(const CommandHelp &c) {
  return usageLine(c) + "\n\n" + std::string(c.summary) + "\n\noptions:\n" +
         "  -h, --help               show this help and exit\n" + std::string(c.options);
}

std::string overallUsage() {
  std::string out = "usage: kbaudit <command> [options]\n\ncommands:\n";
  for (const CommandHelp &c : kCommands) {
    std::string name(c.name);
    out += "  " + name + std::string(name.size() < 9 ? 9 - name.size() : 1, ' ') + std::string(c.summary) + "\n";
  }
  out += "\n`kbaudit COMMAND --help` shows a command's options.\n"
         "exit codes: 0 success/clean, 1 gated verdict, 2 usage or input error, 3 internal error\n";
  return out;
}

bool asksForHelp(const std::vector<std::string> &args) {
  for (const std::string &a : args) {
    if (a == "--")
      return false;
    if (a == "--help" || a == "-h")
      return true;
  }
  return false;
}

} // namespace kbaudit::cli
