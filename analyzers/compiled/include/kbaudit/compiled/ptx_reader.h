#pragma once

// Reads the PTX nvcc emits into per-function instruction facts. Pure text processing, no
// tools: tests feed it PTX directly.

#include "kbaudit/compiled/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::compiled {

/// One `.entry` or `.func` of a PTX module, its own instructions only.
struct PtxFunction {
  std::string name;  ///< as in the PTX (mangled)
  bool entry = false;///< a kernel (`.entry`), else a device function (`.func`)
  KernelCode code;
  std::vector<std::string> calls; ///< `.func`s it calls, by PTX name
};

std::vector<PtxFunction> readPtxFunctions(std::string_view ptx);

/// The kernels of a PTX module with the device functions they call folded in (each callee
/// once), named and demangled. Resources stay unknown (ptxas_report.h fills them).
std::vector<CompiledKernel> readPtx(std::string_view ptx);

/// The canonical dtype of a PTX type modifier ("f16x2" -> "fp16", "e4m3x2" -> "fp8e4m3",
/// "s8" -> "int8"); "" for anything that is not a data type (b16, u32 and other untyped or
/// index types count as none, since they name no arithmetic format).
std::string ptxDtype(std::string_view modifier);

} // namespace kbaudit::compiled
