#include "args.h"
#include "commands.h"
#include "compile_options.h"
#include "runs.h"
#include "worker_pool.h"

#include "kbaudit/runtime/lifetime.h"

#include "output_options.h"
#include "stdin_solution.h"
#include "usage.h"

#include "kbaudit/annotations/formats.h"
#include "kbaudit/annotations/sarif.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/cli/cli.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <unistd.h>

namespace kbaudit::cli {

namespace fs = std::filesystem;
using annotations::terminalSafe;

namespace {

/// The audit of one input in a worker process (as `audit` runs each run), so a front end that
/// crashes, hangs or runs out of memory gives a `bug` annotation and exit 2 with the reason,
/// not a dead process. With --runtime the run stays in this process: the probes already run
/// sandboxed, and the annotation's runtime block does not survive the YAML round trip.
annotations::Annotation auditIsolated(const RunTarget &target, const AuditOptions &options) {
  if (options.runtime)
    return auditRun(target, options);
  std::optional<annotations::Annotation> result;
  std::string failure;
  WorkerLimits limits;
  if (options.compile) // a cold compile brings its own time limit; the worker's must not cut it short
    limits.wall += std::chrono::seconds(static_cast<long>(options.compile->timeoutSeconds));
  runInWorkers(
      1, 1, limits, [&](std::size_t) { return annotations::toYaml(auditRun(target, options)); },
      [&](std::size_t, WorkerOutcome o) {
        if (o.status == WorkerOutcome::Status::Ok) {
          try {
            result = annotations::fromYaml(o.payload);
          } catch (const std::exception &e) {
            failure = std::string("internal error: the worker's annotation did not load back: ") + e.what();
          }
        } else {
          failure = o.reason;
        }
      });
  if (result)
    return *result;
  return unauditableRun(target, options, failure);
}

} // namespace

int cmdCheck(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  std::string error;
  std::set<std::string> valued = {"problem", "problems", "select", "ignore", "stdin-filename"};
  valued.insert(kOutputOptions.begin(), kOutputOptions.end());
  valued.insert(kRuntimeOptions.begin(), kRuntimeOptions.end());
  valued.insert(kCompileOptions.begin(), kCompileOptions.end());
  std::set<std::string> flags = {"statistics"};
  flags.insert(kSharedFlags.begin(), kSharedFlags.end());
  flags.insert(kCompileFlags.begin(), kCompileFlags.end());
  const auto args = Args::parse(argv, valued, flags, error);
  const std::optional<std::string> stdinName = args ? args->value("stdin-filename") : std::nullopt;
  std::vector<std::string> inputs = args ? args->positionals() : std::vector<std::string>{};
  if (inputs.empty() && stdinName)
    inputs.push_back("-"); // as ruff: --stdin-filename alone means the solution is on stdin
  if (!args || inputs.empty()) {
    err << "kbaudit check: " << (args ? "expected a FILE, RUN_DIR or - (stdin)" : terminalSafe(error)) << "\n"
        << usageLine(*findCommandHelp("check")) << "\n";
    return kExitUsage;
  }
  std::optional<OutputOptions> output =
      outputOptionsFrom(*args, "check", "full", &out == &std::cout && isatty(STDOUT_FILENO), err);
  if (!output)
    return kExitUsage;
  output->singleJsonObject = inputs.size() == 1; // the one annotation object check has always printed
  const auto stdinCount = std::count(inputs.begin(), inputs.end(), "-");
  if (stdinCount > 1 || (stdinName && stdinCount == 0)) {
    err << "kbaudit check: " << (stdinCount > 1 ? "stdin (-) can be read once" : "--stdin-filename needs - among the inputs")
        << "\n";
    return kExitUsage;
  }
  std::error_code ec;
  for (const std::string &input : inputs)
    if (input != "-" && !fs::exists(input, ec)) {
      err << "kbaudit check: " << terminalSafe(input) << ": no such file or directory\n";
      return kExitUsage;
    }
  if (args->has("problem") && args->has("problems")) {
    err << "kbaudit check: --problem (one problem for every file) and --problems (a tree to find each file's) "
           "exclude each other\n";
    return kExitUsage;
  }
  // --problems ROOT: each file's problem is found under ROOT from its run id, as `audit` finds it.
  const std::optional<AuditOptions> options =
      auditOptionsFrom(*args, args->has("problems") ? "problems" : "problem", "check", err);
  if (!options)
    return kExitUsage;
  // Private copies of solutions whose probing process was killed outright.
  if (options->runtime)
    runtime::lifetime::removeStaleDirs(runtime::kProbeDirPrefix);

  std::vector<annotations::CheckedFile> all;
  int code = kExitClean;
  for (const std::string &input : inputs) {
    RunTarget target;
    std::optional<StdinSolution> piped;
    std::string artifact;
    if (input == "-") {
      piped = StdinSolution::read(std::cin, error);
      if (!piped) {
        err << "kbaudit check: -: " << error << "\n";
        return kExitUsage;
      }
      const std::string id = stdinName ? targetFor(*stdinName).id : "";
      target = RunTarget{id.empty() ? "stdin" : id, piped->solution(), piped->dir(), false, std::nullopt};
      artifact = stdinName ? artifactPath(*stdinName) : "solution.py";
    } else {
      target = targetFor(input);
      artifact = artifactPath(target.solution);
    }
    annotations::Annotation a = auditIsolated(target, *options);
    if (piped) { // the temporary file is an implementation detail: name the input as the user did
      replacePath(a, piped->solution().string(), artifact);
      replacePath(a, piped->dir().string(), "<stdin>");
    }
    if (a.verdict == "bug") {
      for (const Diagnostic &d : a.kbaudit.diagnostics)
        if (d.severity == Diagnostic::Severity::Error)
          err << "kbaudit check: " << terminalSafe(input) << ": " << terminalSafe(d.code) << ": "
              << terminalSafe(d.message) << "\n";
      code = kExitUsage;
    } else if (gated(a, options->failOn) && code == kExitClean) {
      code = kExitFlagged;
    }
    all.push_back(checkedFile(std::move(a), target, artifact));
  }
  std::string text = renderFiles(all, *output, options->docBaseUrl);
  // After the output, as ruff prints them; machine formats stay one parseable document.
  if (args->has("statistics")) {
    std::vector<annotations::Annotation> annotated;
    for (const annotations::CheckedFile &file : all)
      annotated.push_back(file.annotation);
    if (output->machineReadable())
      err << annotations::findingStatistics(annotated);
    else
      text += annotations::findingStatistics(annotated);
  }
  if (!emitOutput(text, *output, out, err, "check"))
    return kExitInternal;
  return code;
}

} // namespace kbaudit::cli
