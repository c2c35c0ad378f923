#pragma once

// The annotation's header fields (model, harness, effort, problem, peak_fraction) as the run
// itself carries them. The leaderboard publishes these files beside the humans', so a field is
// copied from a source the run holds or left empty: never guessed from the run id, which is a
// file name whose model/harness split is ambiguous (`opencode_deepseek_deepseek-v4-flash`).
//
// Sources, first that has the field wins (docs/annotations.md lists them):
//   1. the evaluation table row the run came from (`model`, `harness`, `effort`, `problem`,
//      `peak_fraction`/`pct_of_peak`);
//   2. `result.json` beside the solution (`model`, `harness`, `effort`, `problem`,
//      `peak_fraction`, else `score` for suites whose cell number is a score);
//   3. `meta.json` beside the solution (same keys).
// `peak_fraction` is null when the source says the run was not correct (the schema's rule).

#include "eval_table.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cli {

struct RunHeader {
  std::string model, harness, effort, problem;
  std::optional<double> peakFraction;
};

RunHeader carriedHeader(const std::optional<Evaluation> &row, const std::filesystem::path &runDir);

} // namespace kbaudit::cli
