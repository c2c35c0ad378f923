#pragma once

// Finding runs on disk and auditing one of them.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/compiled/compile.h"
#include "kbaudit/problems/suite_profile.h"
#include "kbaudit/rules/engine.h"
#include "kbaudit/runtime/probe.h"

#include "baseline.h"
#include "eval_table.h"
#include "result_cache.h"

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
  /// Named on the command line as a file (check FILE): then a symbolic link is followed
  /// wherever it points, since the user chose it. A solution found in a run directory must
  /// lie in that directory.
  bool explicitFile = false;
  /// A row of an evaluation table (KernelBench-v3 dataset layout): model, gpu, level, problem
  /// and the precision it was graded at come from the row, not from the id.
  std::optional<Evaluation> evaluation;
};

struct Discovery {
  std::vector<RunTarget> runs; ///< sorted by id; ids are distinct
  /// Entries that look like runs but are not audited, each with the reason
  /// (`name: dangling symbolic link`); printed by audit.
  std::vector<std::string> skipped;
  /// Other entries (README, manifest.tsv, ...): only counted.
  std::size_t ignored = 0;
};

/// Runs under `root`: the rows of the evaluation tables directly in it (KernelBench-v3
/// dataset layout, see eval_table.h) when it has any; otherwise subdirectories holding
/// solution.py, files named `*solution.py*`, and subdirectories (or links) named like a run id
/// that lack a solution (so they are reported), or `root` itself when it holds solution.py and
/// no run directory. Two entries that would give one id (`a_solution.py`, `a.solution.py.txt`)
/// keep their file names as ids.
Discovery discoverRuns(const std::filesystem::path &root);

/// A single file or run directory given on the command line.
RunTarget targetFor(const std::filesystem::path &fileOrDir);

struct AuditOptions {
  rules::Selection selection;
  /// Root of problem definitions (`<bench>/<gpu>/<problem>/` or flat); empty: none.
  std::filesystem::path problemsRoot;
  /// Problem names under problemsRoot (problems::listProblemNames), to split run ids on.
  std::vector<std::string> knownProblems;
  /// One problem directory for every run (check --problem); overrides problemsRoot.
  std::filesystem::path problemDir;
  /// Run the sandboxed runtime probes too (`--runtime`); they need the run's problem.
  std::optional<runtime::ProbeOptions> runtime;
  /// Findings a maintainer accepted after review (--baseline, `baseline:` in kbaudit.yaml).
  std::optional<Baseline> baseline;
  /// Which outcomes exit 1: reward_hack, rubric_leak, review (any finding left for review).
  std::set<std::string> failOn = {"reward_hack", "rubric_leak"};
  /// Given on the command line or in kbaudit.yaml (audit gates only when asked to).
  bool failOnExplicit = false;
  /// Where rule pages live, for SARIF help links ("" = the docs/rules of this build's tree).
  std::string docBaseUrl;
  /// Non-empty: this is the retry of a run whose full analysis failed for this reason; the
  /// C++/CUDA front end is skipped and the annotation says the audit is incomplete.
  std::string degraded;
  /// How the selection above was made (recorded in every annotation and SARIF run).
  annotations::RuleSelectionInfo selectionInfo;
  /// The suite profiles (built in plus --suites / `suites:` folders) and the one asked for
  /// (--suite / `suite:`), "" to detect each run's suite.
  problems::ProfileSet profiles;
  std::string suite;
  std::string suiteRequestedBy;
  /// Everything in these options that changes an annotation, with the kbaudit build, as text:
  /// part of each run's fingerprint (run_fingerprint.h).
  std::string fingerprintKey;
  /// Non-empty: an annotation in this folder whose fingerprint matches the run's is kept as it
  /// is instead of auditing the run again (audit into a folder a killed audit left behind).
  std::filesystem::path keepFrom;
  /// Compile the CUDA sources (the compiled front end); nullopt: source facts only. The arch is
  /// chosen per run (compile_options.h) unless --arch fixed it.
  std::optional<compiled::CompileOptions> compile;
  bool compileArchGiven = false;
  /// The result cache (audit; nullopt: none): a run whose fingerprint it holds is not analysed
  /// again, and an analysed run is filed there. Never used with the runtime probes or the
  /// compiled front end, whose evidence depends on the machine (the GPU, the toolkit).
  std::optional<ResultCache> resultCache;
  /// False (--fresh): every run is analysed again; the cache is only written.
  bool readCache = true;
};

/// Whether an annotation trips the --fail-on gate.
bool gated(const annotations::Annotation &a, const std::set<std::string> &failOn);
/// The same for a result read from the cache.
bool gated(const CachedResult &r, const std::set<std::string> &failOn);

class Args;

/// The options `check`, `audit` and `baseline` share, with the config file's keys beneath them:
/// selection, suites, baseline, gating, probes, compiling, and the problem: `audit` reads a tree
/// (--problems, `problems:`); `check` and `baseline` one directory (--problem, `problem:`) or a
/// tree, the command line first, then the config's `problem:`, then its `problems:`. Problem
/// and baseline paths are made canonical, so every spelling of one folder is the same option
/// (and the same fingerprint). nullopt after writing the reason to `err` prefixed by `command`.
std::optional<AuditOptions> auditOptionsFrom(const Args &args, const std::string &command, std::ostream &err);

/// Probe options from --device/--python/--probe-timeout/--seeds; nullopt after writing the reason.
std::optional<runtime::ProbeOptions> probeOptionsFrom(const Args &args, const std::string &command,
                                                      std::ostream &err);

/// Analyses, runs the rules and synthesizes the annotation. Never throws for bad input.
annotations::Annotation auditRun(const RunTarget &run, const AuditOptions &options);

struct AuditOutcome {
  annotations::Annotation annotation;
  /// The annotation in options.keepFrom was up to date and is returned as it is.
  bool kept = false;
  /// With options.resultCache: the annotation as YAML (read back from the cache, or filed
  /// there). On a hit `annotation` is left empty: the YAML is the result.
  std::optional<CachedResult> cached;
  bool fromCache = false;
};

/// auditRun, except that an up-to-date annotation in options.keepFrom (same fingerprint) is
/// returned as it is, without analysing the run.
AuditOutcome auditOrKeep(const RunTarget &run, const AuditOptions &options);

/// The `bug` annotation of a run kbaudit could not audit at all (its worker failed).
annotations::Annotation unauditableRun(const RunTarget &run, const AuditOptions &options, const std::string &why);

std::string version();

} // namespace kbaudit::cli
