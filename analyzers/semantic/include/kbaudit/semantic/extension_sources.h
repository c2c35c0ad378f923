#pragma once

// Which compiled extension an embedded C++/CUDA source belongs to, where a C++ fact sits in
// solution.py, and what else an extension's sources run. The facts give each fact a source
// index and each source a module index; the rules that tie an authored kernel, an export or a
// library call to the Python that loads it (WRAP002, WRAP003, WRAP005, WRAP006, PREC001) ask
// here instead of indexing those tables themselves.

#include "kbaudit/facts.h"

#include <optional>

namespace kbaudit::semantic {

/// The extension module (EmbedFacts::modules index) embedded source `source` is compiled
/// into; -1 when the source is unknown or belongs to no module.
int extensionModule(const embed::EmbedFacts &em, int source);

/// Sources `a` and `b` end up in one extension: the same source, or two sources of one known
/// module.
bool sameExtension(const embed::EmbedFacts &em, int a, int b);

/// The export `e` is what the Python call `call` runs: the same exported name, and the same
/// module unless either side's module is unknown (a prebuilt or dynamically named extension).
bool exportServes(const embed::EmbedFacts &em, const cxx::ExportedFunction &e, const embed::ExtensionCall &call);

/// The solution.py lines of a C++ fact of `source`: its own `lines` when the source is text
/// of solution.py and the lines are known; nullopt for a sidecar file's source (its lines
/// number another file), unknown lines or an unknown source.
std::optional<LineRange> linesInSolution(const embed::EmbedFacts &em, int source, LineRange lines);

/// Where a finding on a C++ fact of `source` points in solution.py: its own lines when they
/// are solution.py's, else the lines of the call that loads the source (a sidecar, unknown
/// lines); `lines` unchanged when the source is unknown.
LineRange solutionSite(const embed::EmbedFacts &em, int source, LineRange lines);

/// The extension of an authored CUDA kernel among `kernels` also does compute in a library
/// (CUTLASS, CuTe, cuBLAS(Lt), cuDNN or CUB; ATen is not counted, since a cast or an
/// allocation is ATen too): a call, or a library operator type it instantiates, anywhere in
/// the extension's sources. Export names need not match: solutions build `functions=` lists
/// and look exports up at run time.
/// Why: the heavy work may then run in that library rather than in the kernels or in torch.
bool extensionRunsComputeLibrary(const Facts &f, const std::vector<const kernels::Kernel *> &kernels);

} // namespace kbaudit::semantic
