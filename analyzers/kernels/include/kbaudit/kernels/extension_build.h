#pragma once

// Which extensions can be built and imported: the build torch would run from a load_inline
// call's own arguments. load_inline writes `main.cpp` as `#include <torch/extension.h>`, the
// cpp_sources, and, when `functions=` is given, a PYBIND11_MODULE that binds each named function;
// the cuda_sources go to `cuda.cu` for nvcc; both link into one module that Python imports by
// its PyInit symbol. A kernel in an extension that cannot build or import never runs: a
// try/except around the build leaves the PyTorch fallback to do all the work.

#include "kbaudit/cxx/facts.h"
#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/source/line_range.h"

#include <string>
#include <vector>

namespace kbaudit::kernels {

enum class BuildOutcome {
  Builds,   ///< nothing the facts show stops it
  Fails,    ///< the compiler or linker rejects it
  NoModule, ///< it builds, but the library defines no module init: the import fails
  Unknown,  ///< some source text is not known statically, or the builder is not modelled
};
const char *buildOutcomeName(BuildOutcome o);

struct ExtensionBuild {
  int module = -1; ///< index into EmbedFacts::modules
  BuildOutcome outcome = BuildOutcome::Unknown;
  /// Why it fails, in a sentence ("functions= names `k`, which cpp_sources never declares: the
  /// binding torch generates in main.cpp does not compile").
  std::string reason;
  LineRange lines; ///< the build call
};

/// The outcome of every load_inline extension (other builders are Unknown).
std::vector<ExtensionBuild> predictBuilds(const embed::EmbedFacts &embedded, const cxx::CxxFacts &cxx);

} // namespace kbaudit::kernels
