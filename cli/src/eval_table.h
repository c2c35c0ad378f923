#pragma once

// The KernelBench-v3 dataset layout: an evaluation table (CSV, TSV, JSON Lines, or a JSON array
// of objects) whose rows name the model, gpu, level, problem, correctness, precision and the
// solution file (`solution_path`, stored as `*.py.txt`). `kbaudit audit` takes the folder that
// holds such a table and writes one annotation per row.

#include "kbaudit/problems/problem_context.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cli {

/// What one row says about its evaluation, beyond the solution file.
struct Evaluation {
  std::filesystem::path table; ///< the table the row came from
  unsigned row = 0;            ///< 1-based data row (records, not physical lines)
  std::string model, harness, gpu, effort;
  std::string level;           ///< as a problems-root folder name: "level1" (from "1" or "level1")
  std::string problem;         ///< problem name without folders or `.py`: "36_RMSNorm_"
  std::string precision;       ///< `precision_used` as written ("fp32", "fp16"); "" when absent
  std::optional<double> atol, rtol; ///< `tolerance_atol` / `tolerance_rtol`
  std::optional<bool> correct;
  std::optional<double> speedup;      ///< `speedup` (or `geomean_speedup`) over the suite's baseline
  std::string suite;                  ///< a `suite`/`bench` column, when the table has one
  std::optional<double> peakFraction; ///< `peak_fraction`, or `pct_of_peak` / 100, when correct
  std::string solutionPath;    ///< as written in the table ("" when the row has none)
  /// Why the row's solution cannot be looked up ("" when it can): a path holding a NUL byte
  /// would name another file to every system call (the bytes before the NUL).
  std::string unusable;
};

struct EvaluationRun {
  std::string id;                   ///< distinct among the table's rows
  std::filesystem::path solution;   ///< resolved; may not exist (the annotation then says so)
  Evaluation evaluation;
};

struct EvaluationTables {
  std::vector<std::filesystem::path> tables; ///< the files read as evaluation tables
  std::vector<EvaluationRun> runs;
  /// Tables or rows that could not be used, each with the reason (`a.csv: row 7: ...`).
  std::vector<std::string> problems;
};

/// Evaluation tables directly inside `root`: `*.csv`, `*.tsv`, `*.jsonl`, `*.json` files whose
/// columns include `solution_path` (also `solution_file`). Empty `tables` when there is none.
/// Solution paths are resolved against the table's folder, then against `root`.
EvaluationTables readEvaluationTables(const std::filesystem::path &root);

/// The problem as this row was graded: its `precision_used` is the contract (v3 grades a problem
/// at the precision its precision matrix gives the GPU, not only at its inputs' dtype), and its
/// `tolerance_atol`/`tolerance_rtol`, when given, the tolerance (the looser of the two).
void gradedAs(problems::ProblemContext &problem, const Evaluation &e);

/// The parsed records of one table, each a list of (column, value) pairs with column names
/// lower-cased; exposed for tests. nullopt (with `error`) when the file is not a table: not
/// readable, not the format its name says, nested too deep. A JSON Lines table with some
/// unreadable lines gives its other records, and the bad lines (`line 7: ...`) in `badLines`.
using Record = std::vector<std::pair<std::string, std::string>>;
std::optional<std::vector<Record>> parseTable(const std::filesystem::path &file, std::string &error,
                                              std::vector<std::string> *badLines = nullptr);

/// Splits CSV/TSV text into records (RFC 4180 quoting: quoted fields may hold the delimiter,
/// newlines and doubled quotes). The first record is the header.
std::vector<std::vector<std::string>> splitDelimited(std::string_view text, char delimiter);

} // namespace kbaudit::cli
