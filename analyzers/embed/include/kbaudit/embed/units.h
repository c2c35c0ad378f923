#pragma once

// Translation units of the embedded sources, as the Clang front end parses them and the compiled
// front end compiles them. torch joins the strings of a load_inline cpp_sources or cuda_sources
// list with "\n" into one file, so declarations in one string serve the next; the units here do
// the same and remember where each line came from.

#include "kbaudit/embed/embedded_source.h"

#include <string>
#include <vector>

namespace kbaudit::embed {

struct LineOrigin {
  int source = -1;    ///< index into the sources vector, -1 when outside every source
  unsigned line = 0;  ///< 1-indexed line in that source's text
};

struct Unit {
  std::vector<int> sources;
  bool cuda = true;
  /// load_inline prepends torch's headers (<torch/extension.h> to C++, <torch/types.h>,
  /// <cuda.h>, <cuda_runtime.h> to CUDA); the parse force-includes the same.
  bool torchPrelude = false;
  std::string text;
  std::vector<LineOrigin> origins; ///< origins[i]: where unit line i+1 came from

  LineOrigin origin(unsigned unitLine) const {
    return unitLine >= 1 && unitLine <= origins.size() ? origins[unitLine - 1] : LineOrigin{};
  }
};

/// Groups load_inline lists by (module, kind); every other source is a unit of its own.
std::vector<Unit> planUnits(const std::vector<EmbeddedSource> &sources);
/// One source as one unit; `index` is what its facts will carry as `source`.
Unit unitOf(const EmbeddedSource &source, int index);

} // namespace kbaudit::embed
