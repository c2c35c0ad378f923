#pragma once

// The Clang front end: parses embedded C++/CUDA sources (CUDA host-side, with bundled stub
// headers standing in for torch/CUDA/cuBLAS/CUTLASS headers) and mines the AST that
// survives into CxxFacts. Never needs CUDA or libtorch installed.

#include "kbaudit/cxx/facts.h"
#include "kbaudit/embed/embedded_source.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::cxx {

struct FrontendOptions {
  /// Exported names per module index (EmbeddedSource::module), from load_inline's
  /// `functions=` list: torch generates their pybind bindings.
  std::map<int, std::vector<std::string>> functionsByModule;
  /// Include directories searched (after the stubs' built-in names, before the
  /// missing-header fallback) on the real file system: e.g. a CUDA or CUTLASS checkout.
  /// Empty by default: parsing is hermetic.
  std::vector<std::string> includeDirs;
  /// Value of __CUDA_ARCH__ while parsing CUDA (0: leave it undefined). Kernels guard
  /// tensor-core paths with `#if __CUDA_ARCH__ >= 800`; defining it keeps them visible
  /// although only the host side is compiled.
  unsigned cudaArch = 900;
  /// Catch Clang crashes (LLVM CrashRecoveryContext) and report them instead of dying.
  bool recoverCrashes = true;
  /// Parse the stub prelude (torch, CUDA runtime, standard library) once per process and
  /// kind of unit, into an in-memory precompiled header, instead of in every unit (and keep
  /// it on disk for the next process, preludeCacheDir).
  bool precompilePrelude = true;
  /// Where precompiled preludes are kept between processes (src/prelude_cache.h): nullopt for
  /// the default ($KBAUDIT_PRELUDE_CACHE, else ~/.cache/kbaudit/prelude), "" for none. Never
  /// used with includeDirs, whose real headers the prelude may read.
  std::optional<std::string> preludeCacheDir;
  /// Units larger than this are not given to Clang: its time grows faster than the size of one
  /// unit (about 3 s at 1 MB, 10 s at 2 MB, 73 s at 5 MB), and honest load_inline sources are
  /// tens of KB. Such a unit is reported (`tooLarge`) and the run's audit is incomplete.
  std::size_t maxUnitBytes = 1u << 20;
  /// Extra compiler arguments (macro definitions) of this parse: the variant parses that read
  /// the preprocessor branches the first parse skipped (see analyzeSources).
  std::vector<std::string> extraArgs;
  /// Re-parse units whose preprocessor skipped code under the other compilers' macros (nvcc's
  /// view without __clang__, __CUDA_ARCH__ toggled) and keep the facts of the skipped code:
  /// the grading compiler is not ours to assume.
  bool parseSkippedBranches = true;
};

/// Parses every source (joining the strings of one load_inline cuda_sources/cpp_sources
/// list into one unit, as torch does) and links exports to kernels across the sources of
/// each module.
CxxFacts analyzeSources(const std::vector<embed::EmbeddedSource> &sources,
                        const FrontendOptions &options = {});

/// Same, taking `functions=` lists from the extension modules.
CxxFacts analyzeEmbedded(const embed::EmbedFacts &embedded, FrontendOptions options = {});

/// Parses one source on its own; `index` is stored as the facts' `source`. Exports are
/// summarised within this source only.
CxxFacts analyzeSource(const embed::EmbeddedSource &source, int index = 0,
                       const FrontendOptions &options = {});

} // namespace kbaudit::cxx
