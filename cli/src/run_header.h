#pragma once

// The annotation's header fields (model, harness, effort, problem, peak_fraction) as the run
// itself carries them. The leaderboard publishes these files beside the humans', so a field is
// copied from a source the run holds or left empty: never guessed from the run id, which is a
// file name whose model/harness split is ambiguous (`opencode_deepseek_deepseek-v4-flash`).
//
// Sources, first that has the field wins (docs/cli.md lists them):
//   1. the evaluation table row the run came from (`model`, `harness`, `effort`, `problem`,
//      `peak_fraction`/`pct_of_peak`);
//   2. `result.json`, then `meta.json`, beside the solution, as readRunRecord read them
//      (`model`, `harness`, `effort`, `problem`, `peak_fraction`, else `score` for suites whose
//      cell number is a score; null when the file says the run was not correct).

#include "eval_table.h"
#include "run_score.h"

#include <optional>
#include <string>

namespace kbaudit::cli {

struct RunHeader {
  std::string model, harness, effort, problem;
  std::optional<double> peakFraction;
};

RunHeader carriedHeader(const std::optional<Evaluation> &row, const RunRecord &record);

} // namespace kbaudit::cli
