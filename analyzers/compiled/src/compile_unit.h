#pragma once

// Compiling one translation unit: the nvcc command line, the cache, the subprocesses, and the
// reading of what came out.

#include "cache.h"
#include "toolchain.h"

#include "kbaudit/compiled/facts.h"
#include "kbaudit/embed/units.h"

namespace kbaudit::compiled {

/// `torch`: a torch extension source (load_inline, load): built with torch's headers and the
/// flags torch's cpp_extension passes to nvcc; otherwise compiled as plain CUDA (cupy).
CompiledUnit compileUnit(const embed::Unit &unit, bool torch, const std::vector<embed::EmbeddedSource> &sources,
                         const Toolchain &toolchain, const CompileOptions &options, const CompileCache &cache);

} // namespace kbaudit::compiled
