#pragma once

// Finding runs on disk and auditing one of them.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/rules/engine.h"
#include "kbaudit/runtime/probe.h"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::cli {

struct RunTarget {
  std::string id;                   ///< run id (directory name, or file name without the suffix)
  std::filesystem::path solution;   ///< may not exist: the annotation then says so
  std::filesystem::path dir;        ///< run directory (meta.json, sidecars)
};

/// Runs under `root`: subdirectories holding solution.py, files named `*solution.py*`,
/// and subdirectories named like a run id that lack a solution (so they are reported).
/// `root` itself when it holds solution.py. Sorted by id.
std::vector<RunTarget> discoverRuns(const std::filesystem::path &root);

/// A single file or run directory given on the command line.
RunTarget targetFor(const std::filesystem::path &fileOrDir);

struct AuditOptions {
  rules::Selection selection;
  /// Root of problem definitions (`<bench>/<gpu>/<problem>/` or flat); empty: none.
  std::filesystem::path problemsRoot;
  /// One problem directory for every run (check --problem); overrides problemsRoot.
  std::filesystem::path problemDir;
  /// Run the sandboxed runtime probes too (`--runtime`); they need the run's problem.
  std::optional<runtime::ProbeOptions> runtime;
};

/// Options every command that can run probes accepts (valued: device, python, probe-timeout).
inline const std::set<std::string> kRuntimeOptions = {"device", "python", "probe-timeout"};

class Args;

/// The options `check` and `audit` share: --select, --ignore, and the problem option named
/// `problemOption` ("problem": one directory; "problems": a tree). nullopt after writing
/// the reason to `err` prefixed by `command`.
std::optional<AuditOptions> auditOptionsFrom(const Args &args, const std::string &problemOption,
                                             const std::string &command, std::ostream &err);

/// Probe options from --device/--python/--probe-timeout; nullopt after writing the reason.
std::optional<runtime::ProbeOptions> probeOptionsFrom(const Args &args, const std::string &command,
                                                      std::ostream &err);

/// Analyses, runs the rules and synthesizes the annotation. Never throws for bad input.
annotations::Annotation auditRun(const RunTarget &run, const AuditOptions &options);

std::string version();

} // namespace kbaudit::cli
