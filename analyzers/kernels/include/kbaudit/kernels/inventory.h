#pragma once

// The authored kernels of a solution and whether `forward` reaches them: the first cut of
// the kernel work summary. Python-hosted kernels (Triton, CuTe DSL, ...) come from the
// Python facts; CUDA kernels and inline PTX from a lexical scan of the embedded sources
// that ignores comments and string literals. (The Clang front end refines the latter.)

#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/python/facts.h"
#include "kbaudit/source/line_range.h"

#include <string>
#include <vector>

namespace kbaudit::kernels {

enum class KernelKind {
  Triton,    ///< @triton.jit (possibly under @triton.autotune / @triton.heuristics)
  PythonDsl, ///< CuTe DSL, numba.cuda, Helion, TileLang kernels written in Python
  CudaGlobal,///< a __global__ function in an embedded C++/CUDA source
  InlinePtx, ///< an asm(...) statement in an embedded source
};

const char *kernelKindName(KernelKind k);

struct Kernel {
  KernelKind kind = KernelKind::Triton;
  std::string name;  ///< function name ("" for inline PTX)
  int source = -1;   ///< index into EmbedFacts::sources for CUDA kinds
  LineRange lines;   ///< in solution.py (or the sidecar named by the source)
  bool reachedFromForward = false;
};

struct KernelInventory {
  std::vector<Kernel> kernels;
  /// Qualified names of the `forward` methods the reachability walk started from.
  std::vector<std::string> entryPoints;
  /// Functions reachable from an entry point (entry points included).
  std::vector<std::string> reachableFunctions;
  /// Modules imported by the solution that are not installed libraries kbaudit knows and
  /// not present next to it: kernels may hide there, so absence of evidence is weaker.
  std::vector<std::string> unresolvedLocalImports;

  bool anyReached() const {
    for (const auto &k : kernels)
      if (k.reachedFromForward)
        return true;
    return false;
  }
};

KernelInventory buildInventory(const py::PythonFacts &python, const embed::EmbedFacts &embedded);

} // namespace kbaudit::kernels
