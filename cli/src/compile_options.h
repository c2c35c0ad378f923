#pragma once

// The compiled front end's options on check and audit (--compile, --no-compile, --arch,
// --compile-cache, --compile-timeout) and the architecture each run is compiled for.

#include "kbaudit/compiled/compile.h"
#include "kbaudit/problems/problem_context.h"

#include <optional>
#include <ostream>
#include <set>
#include <string>

namespace kbaudit::cli {

class Args;

struct CompileChoice {
  /// nullopt: no compiling. Both commands compile only with --compile: a cold compile of a torch
  /// extension source costs tens of seconds (docs/frontends.md), and `check` must answer a
  /// pre-commit hook or an editor in milliseconds.
  std::optional<compiled::CompileOptions> options;
  bool archGiven = false; ///< --arch: every run is compiled for it
};

/// nullopt after writing the reason to `err`.
std::optional<CompileChoice> compileChoiceFrom(const Args &args, const std::string &command, std::ostream &err);

/// Sets options.arch/archReason for one run unless --arch was given: problem.yaml `hardware`,
/// else the run's GPU (meta.json, the evaluation row), else a GPU named by the problem's path
/// (`problems/hard/h100/01_fp8_gemm`), else compiled::kDefaultArch.
void chooseArch(compiled::CompileOptions &options, const problems::ProblemContext *problem, const std::string &runGpu);

} // namespace kbaudit::cli
