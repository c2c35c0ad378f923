#pragma once

// The compiled front end: compiles each embedded CUDA translation unit with nvcc (device side,
// `-ptx`, for one GPU architecture) in a subprocess with a time limit, reads the PTX and ptxas's
// resource report into per-kernel facts, and caches what the compiler produced by content hash.
// Embedded sources are hostile text: they are only ever compiled, in a temporary directory, and
// nothing built from them runs.

#include "kbaudit/compiled/arch.h"
#include "kbaudit/compiled/facts.h"
#include "kbaudit/embed/embedded_source.h"

#include <filesystem>
#include <string>

namespace kbaudit::compiled {

struct CompileOptions {
  /// nvcc to run; "" finds it: $KBAUDIT_NVCC, `nvcc` on PATH, /usr/local/cuda/bin/nvcc.
  std::string nvcc;
  std::string arch = kDefaultArch;
  std::string archReason = "default";
  /// Where compiled output is cached; "" disables the cache (see defaultCacheDir()).
  std::filesystem::path cacheDir;
  /// Wall-clock limit of one compile (nvcc, then ptxas): a cold compile of a torch extension
  /// source parses torch's headers, which takes tens of seconds on a loaded machine.
  double timeoutSeconds = 300;
  /// torch's headers (the torch wheel's `torch/include`); "" finds them: $KBAUDIT_TORCH_INCLUDE,
  /// else the project's .venv. Python's headers (pybind11 needs Python.h) likewise:
  /// $KBAUDIT_PYTHON_INCLUDE, else /usr/include/python3.X of the venv's Python.
  std::string torchInclude;
  std::string pythonInclude;
  /// Units larger than this are not compiled (reported TooLarge).
  std::size_t maxUnitBytes = 1u << 20;
};

/// $KBAUDIT_COMPILE_CACHE, else $XDG_CACHE_HOME/kbaudit/compiled, else ~/.cache/kbaudit/compiled;
/// "" when none of them can be named.
std::filesystem::path defaultCacheDir();

/// Compiles the CUDA units of the embedded sources (the strings of one load_inline cuda_sources
/// list form one unit, as torch builds them). Never throws for bad sources: every unit not
/// compiled says why.
CompiledFacts compileEmbedded(const embed::EmbedFacts &embedded, const CompileOptions &options);

/// The toolkit compileEmbedded would use ("nvcc 13.0, V13.0.88"), "" when there is no nvcc.
std::string toolkitVersion(const CompileOptions &options = {});

} // namespace kbaudit::compiled
