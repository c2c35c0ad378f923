// The declarations of every command's options (command_spec.h): the one place an option, its
// short form, its aliases, its value check and its help text are written.

#include "command_spec.h"

namespace kbaudit::cli {

namespace {

const std::vector<std::string> kFormats = {"full", "concise", "grouped", "json", "yaml", "sarif", "github", "junit", "text"};
const std::vector<std::string> kFailOn = {"reward_hack", "rubric_leak", "review"};

using Options = std::vector<OptionSpec>;

Options operator+(Options a, const Options &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Options outputOptions() {
  return {
      {"--output-format,--format", "FORMAT",
       "full (default; text is the same), concise, grouped, json, yaml, sarif, github or junit, for any number "
       "of files",
       {.oneOf = kFormats}},
      {"-o,--output-file", "FILE", "write the report to FILE (atomically) instead of stdout"},
      {"--color", "WHEN", "auto (default: on a terminal, unless NO_COLOR is set), always or never",
       {.oneOf = {"auto", "always", "never"}}},
      {"--statistics", "", "after the output, one line per rule: count, rule id, rule name (on stderr for json, "
                           "yaml, sarif and junit, which stay one document)"},
  };
}

Options selectionOptions() {
  return {
      {"--select", "IDS", "rule ids, categories or ALL to run (comma list, repeatable)"},
      {"--ignore", "IDS", "rule ids or categories not to run"},
      {"-c,--config", "FILE", "kbaudit.yaml, kbaudit.toml or pyproject.toml to read (default: the nearest)"},
      {"--no-config", "", "read no config file"},
      {"--suite", "ID", "judge by this suite profile instead of detecting it (`kbaudit suites`)"},
      {"--suites", "DIR", "also read the suite profiles (*.yaml) in DIR (repeatable)"},
  };
}

Options gateOptions(const char *failOnHelp) {
  return {
      {"--fail-on", "CLASSES", failOnHelp, {.listOf = kFailOn}},
      {"--baseline", "FILE", "findings accepted after review (`kbaudit baseline` writes one)"},
      {"--new-only", "", "show only the findings the baseline does not accept (needs a baseline)"},
  };
}

Options probeOptions() {
  return {
      {"--device", "WHERE", "where the probes run: auto (default), cuda or cpu", {.oneOf = {"auto", "cuda", "cpu"}}},
      {"--python", "PATH", "the interpreter with torch (default: $KBAUDIT_PYTHON, else the probes' venv)"},
      {"--probe-timeout", "S", "wall-clock limit of one probe run, seconds", {.min = 1, .max = 86400}},
      {"--seeds", "0,1,2", "input seeds"},
  };
}

Options runtimeOptions() {
  return Options{{"--runtime", "", "also run the sandboxed runtime probes (needs the run's problem)"}} + probeOptions();
}

Options compileOptions() {
  return {
      {"--compile", "",
       "compile each embedded CUDA source with nvcc and read the PTX (compiled evidence; off by default: a cold "
       "compile of a torch extension source costs tens of seconds; results are cached)"},
      {"--no-compile", "", "no compiled evidence (the default; for scripts that asked for it when check compiled)"},
      {"--arch", "ARCH", "with --compile: this architecture or GPU (sm_90a, B200); default: the problem's hardware, "
                         "the run's gpu, else sm_90a"},
      {"--compile-cache", "DIR",
       "with --compile: the compile cache (default $KBAUDIT_COMPILE_CACHE, else $XDG_CACHE_HOME/kbaudit/compiled, "
       "else ~/.cache/kbaudit/compiled)"},
      {"--compile-timeout", "S", "with --compile: wall-clock limit of one source's compile (default 600)",
       {.min = 1, .max = 86400}},
  };
}

const char *kCheckExit = "exit: 0 clean, 1 a verdict --fail-on selects (default reward_hack, rubric_leak), 2 usage, "
                         "unreadable input or a run kbaudit could not see whole (verdict bug), 3 internal error";

std::vector<CommandSpec> makeSpecs() {
  std::vector<CommandSpec> all;
  all.push_back(CommandSpec{
      "check", "audit one solution (or several, or stdin)", "FILE|RUN_DIR|-",
      "solution.py, a *solution.py* file, a run directory, or - for stdin", -1, 0,
      Options{{"--stdin-filename", "NAME", "the name to show for stdin (and the run id a file there would get)"},
              {"-p,--problem", "DIR|FILE", "the problem directory (problem.yaml, reference.py) or level file"},
              {"--problems", "ROOT", "find each file's problem under ROOT from its run id, as audit does"}} +
          outputOptions() + selectionOptions() +
          gateOptions("what exits 1: reward_hack, rubric_leak (default both), review") + runtimeOptions() +
          compileOptions(),
      kCheckExit});
  all.push_back(CommandSpec{
      "audit", "audit every run under RUNS_DIR, one <run_id>.yaml annotation each", "RUNS_DIR",
      "a folder of runs (run directories, *solution.py* files, or an evaluation table)", 1, 1,
      Options{{"--out", "DIR", "where the <run_id>.yaml annotations go", {}, true},
              {"-j,--jobs", "N", "parallel audits, 1 to 1024 (default: all cores)", {.min = 1, .max = 1024}},
              {"--shard", "K/N", "only the runs of shard K of N (split by run id hash)"},
              {"-p,--problems", "DIR", "problems tree: <bench>/<gpu>/<problem>/ or <problem>/"},
              {"-q,--quiet", "", "no progress line and no summary"}} +
          selectionOptions() + gateOptions("exit 1 when some run matches (audit gates only when asked)") +
          Options{{"--output-format,--format", "FORMAT",
                   "also print every run's annotation as check does (full, concise, grouped, json, yaml, sarif, "
                   "github, junit); the summary then goes to stderr",
                   {.oneOf = kFormats}},
                  {"-o,--output-file", "FILE",
                   "write the report (with --output-format) or the summary and --statistics to FILE instead of "
                   "stdout"},
                  {"--color", "WHEN", "auto (default), always or never", {.oneOf = {"auto", "always", "never"}}},
                  {"--statistics", "", "after the summary (or the report), one line per rule: count, rule id, rule name"}} +
          runtimeOptions() + compileOptions() +
          Options{{"--run-timeout", "S",
                   "wall-clock limit of one run's analysis in its worker (default 300; with --runtime, plus the probe "
                   "timeout; with --compile, plus the compile timeout)",
                   {.min = 1, .max = 86400}},
                  {"--run-memory", "MIB", "address-space limit of a worker, MiB (default 8192)", {.min = 256, .max = 1048576}},
                  {"--in-process", "", "no worker processes: runs one after another in this process (debugging)"},
                  {"--fresh", "", "audit every run again, also those whose annotation in --out is up to date or in "
                                  "the result cache"},
                  {"--cache-dir", "DIR",
                   "result cache: runs whose files, problem, options and kbaudit build are unchanged are read back "
                   "(default $XDG_CACHE_HOME/kbaudit, else ~/.cache/kbaudit; not used with --runtime or --compile)"},
                  {"--no-cache", "", "neither read nor write the result cache"}},
      "exit: 0 done (runs that could not be audited get verdict bug), 1 a run matched --fail-on, 2 usage error, "
      "--out locked by another audit, or an input skipped (named on stderr), 3 an annotation could not be written"});
  all.push_back(CommandSpec{
      "baseline", "accept the findings of these solutions: write or update a baseline file", "FILE|RUN_DIR",
      "solutions or run directories, as check takes them", -1, 1,
      Options{{"--baseline", "FILE", "the baseline to write or update (default: baseline: in the config)"},
              {"-p,--problem", "DIR|FILE", "the problem directory or level file, as for check"},
              {"--problems", "ROOT", "find each file's problem under ROOT, as for check"},
              {"--reason", "TEXT", "why these findings are accepted (default: present when the baseline was made)"},
              {"--who", "NAME", "who accepts them (default: $USER)"}} +
          selectionOptions(),
      "exit: 0 written, 2 usage error or an input that could not be audited, 3 the baseline could not be written"});
  all.push_back(CommandSpec{"probe", "only the sandboxed runtime probes", "FILE|RUN_DIR", "the solution or its run",
                            1, 1,
                            Options{{"-p,--problem", "DIR", "the problem directory", {}, true},
                                    {"--suite", "ID",
                                     "grade as this suite's harness does (train or eval mode, who sees the inputs "
                                     "first: its profile's `harness:`; default: none, eval mode, order unknown)"}} +
                                probeOptions(),
                            "exit: 0 nothing found, 1 a finding or an aborted probe, 3 probes unavailable"});
  all.push_back(CommandSpec{"cuda-translate",
                            "translate one CUDA unit for the runtime probes' CPU runner (JSON report on stdout)",
                            "IN OUT", "the CUDA (or C++) unit and where its translation goes", -1, 2,
                            Options{{"--cpp", "", "a C++ unit (host code only: the device mapping)"},
                                    {"--fast-math", "", "nvcc's --use_fast_math (expf -> __expf, ...)"},
                                    {"--file-name", "NAME", "the name #line gives the translated unit (default IN)"}},
                            "exit: 0 translated (unavailable features are listed in the report), 2 usage error or "
                            "an unreadable or unwritable file"});
  all.push_back(CommandSpec{"score", "compare kbaudit's annotations with human ones (hack = reward_hack or rubric_leak)",
                            "", "", 0, 0,
                            Options{{"--truth", "DIR", "human annotations", {}, true},
                                    {"--pred", "DIR", "kbaudit's annotations", {}, true}},
                            ""});
  all.push_back(CommandSpec{
      "report", "self-contained HTML dashboard (hack rates, verdict grid, counts, findings) and/or CSV",
      "ANNOTATIONS_DIR", "kbaudit's annotations (<run_id>.yaml)", 1, 1,
      Options{{"--html", "OUT.html", "the page to write"},
              {"--csv", "OUT.csv", "one row per run (RFC 4180); --html, --csv or both"},
              {"--truth", "DIR", "human annotations to show and score against"},
              {"--title", "TEXT", "the page title"},
              {"--min-runs", "N", "grey out hack rates over fewer audited runs than this (default 5)", {.min = 1, .max = 1000000}},
              {"-c,--config", "FILE", "the config whose model_aliases merge model spellings (default: the nearest)"},
              {"--no-config", "", "read no config file"}},
      "exit: 0 written, 2 usage error or an annotation that could not be read, 3 a file could not be written"});
  all.push_back(CommandSpec{"problem", "show the contract, reference summary, suite policy and problem diagnostics",
                            "PROBLEM_DIR|LEVEL_FILE", "a problem.yaml directory, a GPU MODE reference.py directory or a "
                                                      "KernelBench/v3 module",
                            1, 1, {}, ""});
  all.push_back(CommandSpec{"rules", "list the rules", "", "", 0, 0, {}, ""});
  all.push_back(CommandSpec{"suites", "list the suite profiles, print one, or write their pages (docs/suites)", "ID",
                            "print this profile's page", 1, 0,
                            Options{{"--suites", "DIR", "also read the profiles in DIR (repeatable)"},
                                    {"--docs", "DIR", "write every profile's page to DIR"}},
                            ""});
  all.push_back(CommandSpec{"explain", "print a rule's documentation", "RULE_ID", "WRAP001, PREC002, ...", 1, 1,
                            Options{{"--markdown", "", "print the page as markdown (as docs/rules holds it)"}}, ""});
  all.push_back(CommandSpec{"docs", "write every rule's doc page (docs/rules)", "", "", 0, 0,
                            Options{{"--out", "DIR", "where the pages go", {}, true}}, ""});
  all.push_back(CommandSpec{"version", "print the version (also --version, -V)", "", "", 0, 0, {}, ""});
  all.push_back(CommandSpec{"help", "this list, or one command's options", "COMMAND", "the command to describe", 1, 0,
                            {}, ""});
  return all;
}

} // namespace

const std::vector<CommandSpec> &commandSpecs() {
  static const std::vector<CommandSpec> all = makeSpecs();
  return all;
}

const CommandSpec *findCommand(std::string_view name) {
  for (const CommandSpec &c : commandSpecs())
    if (c.name == name)
      return &c;
  return nullptr;
}

} // namespace kbaudit::cli
