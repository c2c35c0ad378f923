#pragma once

// Everything the front ends know about one solution: the contract rules read.

#include "kbaudit/compiled/compile.h"
#include "kbaudit/compiled/facts.h"
#include "kbaudit/cxx/facts.h"
#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/kernels/inventory.h"
#include "kbaudit/python/facts.h"
#include "kbaudit/source/source_file.h"
#include "kbaudit/triton/facts.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace kbaudit {

struct Facts {
  SourceFile source;
  py::PythonFacts python;
  embed::EmbedFacts embedded;
  cxx::CxxFacts cxx;
  /// What nvcc emits for the CUDA sources (`attempted` false unless compilation was asked for).
  compiled::CompiledFacts compiled;
  triton::TritonFacts triton;
  kernels::KernelInventory kernels;

  /// Diagnostics of every front end, in pipeline order.
  std::vector<Diagnostic> diagnostics() const;
};

struct AnalysisOptions {
  /// Parse embedded C++/CUDA with Clang. Off for the retry of a run whose full analysis
  /// crashed or ran out of time or memory: the Python facts alone still decide what they can.
  bool cxx = true;
  /// Compile the CUDA sources with nvcc and read the PTX (the compiled front end). Off unless
  /// set: a cold compile of a torch extension source takes tens of seconds.
  std::optional<compiled::CompileOptions> compile;
};

/// Runs the front ends over a solution file; sidecars are looked up next to it.
Facts analyzeSolution(const std::filesystem::path &solution, const AnalysisOptions &options = {});
/// Runs the front ends over an already loaded source (fixtures, fuzzing).
Facts analyzeSource(SourceFile source, const std::filesystem::path &solutionDir = {},
                    const AnalysisOptions &options = {});

} // namespace kbaudit
