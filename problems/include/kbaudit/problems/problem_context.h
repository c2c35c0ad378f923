#pragma once

// What a run was graded against. The foundation reads only what problem.yaml states;
// reference analysis and suite overlays build on this struct.

#include "kbaudit/source/diagnostic.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::problems {

struct ProblemContext {
  std::filesystem::path dir;
  std::string name;          ///< directory name, e.g. "01_fp8_gemm"
  std::string displayName;   ///< problem.yaml display_name
  std::string precision;     ///< problem.yaml precision, e.g. "fp8_e4m3", "bf16", "fp32"
  std::string regime;        ///< "compute" / "memory"
  std::map<std::string, double> tolerance;
  std::vector<std::string> forbidden;
  std::vector<Diagnostic> diagnostics;
};

/// Reads a problem directory (KernelBench-Hard layout: problem.yaml, reference.py, ...).
/// Never throws; a missing or malformed problem.yaml becomes a diagnostic.
ProblemContext loadProblem(const std::filesystem::path &dir);

/// Finds the directory of `problem` under `root`, which is either `<bench>/<gpu>/<problem>/`
/// (as in the corpus) or flat `<problem>/`. `bench`/`gpu` narrow the search when known.
std::optional<std::filesystem::path> findProblemDir(const std::filesystem::path &root,
                                                    const std::string &problem,
                                                    const std::string &bench = {},
                                                    const std::string &gpu = {});

} // namespace kbaudit::problems
