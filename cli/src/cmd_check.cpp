#include "args.h"
#include "commands.h"
#include "compile_options.h"
#include "runs.h"
#include "isolated_audit.h"

#include "kbaudit/runtime/lifetime.h"

#include "output_options.h"
#include "stdin_solution.h"

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

int cmdCheck(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "check", err);
  if (!args)
    return kExitUsage;
  const std::optional<std::string> stdinName = args->value("stdin-filename");
  std::vector<std::string> inputs = args->positionals();
  if (inputs.empty() && stdinName)
    inputs.push_back("-"); // as ruff: --stdin-filename alone means the solution is on stdin
  if (inputs.empty())
    return usageError("check", "expected a FILE, RUN_DIR or - (stdin)", err);
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
  // --problem DIR for every file, or --problems ROOT: each file's problem found under ROOT from
  // its run id, as `audit` finds it (or the config's problem: / problems:).
  const std::optional<AuditOptions> options = auditOptionsFrom(*args, "check", err);
  if (!options)
    return kExitUsage;
  // Private copies of solutions whose probing process was killed outright.
  if (options->runtime)
    runtime::lifetime::removeStaleDirs(runtime::kProbeDirPrefix);

  std::vector<annotations::CheckedFile> all;
  int code = kExitClean;
  std::string error;
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
      // Why exit 2: the file's own error, or what kbaudit could not see (never clean by omission).
      bool said = false;
      for (const Diagnostic &d : a.kbaudit.diagnostics)
        if (d.severity == Diagnostic::Severity::Error) {
          err << "kbaudit check: " << terminalSafe(input) << ": " << terminalSafe(d.code) << ": "
              << terminalSafe(d.message) << "\n";
          said = true;
        }
      if (!said)
        for (const std::string &why : a.kbaudit.incomplete)
          err << "kbaudit check: " << terminalSafe(input) << ": analysis-incomplete: " << terminalSafe(why) << "\n";
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
