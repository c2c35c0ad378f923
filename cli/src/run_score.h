#pragma once

// What a run's own evaluation says about it: whether it passed the suite's correctness check and
// how much faster than the suite's baseline it ran. Read from what the run carries (a table row,
// result.json or meta.json beside the solution, the suite's problem_baselines.json), never guessed.

#include "kbaudit/annotations/suite_judgement.h"
#include "kbaudit/problems/problem_context.h"

#include "eval_table.h"

#include "kbaudit/source/diagnostic.h"
#include "kbaudit/source/json_data.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cli {

/// The run's own record beside its solution (result.json, else meta.json), reduced to what the
/// audit uses.
struct RunRecord {
  std::string bench;             ///< `bench` (or `suite`)
  std::optional<bool> correct;   ///< `correct`
  std::optional<double> speedup; ///< `speedup`
  std::optional<double> peakFraction; ///< `peak_fraction`
  std::optional<double> solutionMs; ///< geometric mean of `shapes[].ms`
  std::string file;              ///< the file read ("result.json"), "" when none
  /// What the run says of itself for the annotation's header (run_header.h), first file that
  /// has each: `model`, `harness`, `effort`, `problem`.
  std::string model, harness, effort, problem;
  /// The cell's number: `peak_fraction`, else `score`; none when the deciding file says the run
  /// was not `correct`. `cellDecided` is false when no file says either.
  std::optional<double> cellNumber;
  bool cellDecided = false;
  /// One `run-record-unreadable` warning per file present but not read.
  std::vector<Diagnostic> diagnostics;
};

/// Reads result.json, then meta.json, in `runDir`. Files too large, too deeply nested, not
/// regular or not JSON give an empty record (the score is then unknown, which the annotation
/// says) and a diagnostic each.
RunRecord readRunRecord(const std::filesystem::path &runDir);

/// A JSON file beside a run or a problem, within bounds: nullopt when absent, and also, with a
/// `run-record-unreadable` diagnostic appended to `diagnostics` (when given), when it is not a
/// regular file, too large, nested too deep or not JSON.
std::optional<data::Json> readRunJson(const std::filesystem::path &file, std::vector<Diagnostic> *diagnostics);

/// The run's score: from its table row, or from its record and, for a speedup, the eager
/// baseline of `problem` in the problem_baselines.json one or two folders above the problem.
annotations::RunScore runScore(const std::optional<Evaluation> &row, const RunRecord &record,
                               const problems::ProblemContext *problem);

} // namespace kbaudit::cli
