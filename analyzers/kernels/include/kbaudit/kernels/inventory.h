#pragma once

// The authored kernels of a solution, whether `forward` reaches them, and what they and
// forward compute: the kernel work summary. Python-hosted kernels (Triton, CuTe DSL, ...)
// come from the Python and Triton facts; CUDA kernels and inline PTX from the Clang facts,
// reached through the exports Python calls.

#include "kbaudit/cxx/facts.h"
#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/kernels/extension_build.h"
#include "kbaudit/python/facts.h"
#include "kbaudit/triton/facts.h"
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

/// What an authored kernel computes, as far as the facts show.
enum class KernelWork { Matmul, Reduction, Scan, Sort, Elementwise, Copy, Unknown };
const char *kernelWorkName(KernelWork w);

/// A heavy operation forward performs through PyTorch or a library instead of a kernel.
enum class HeavyOpKind { Matmul, Conv, Attention, Scan, Sort };
const char *heavyOpKindName(HeavyOpKind k);

struct LibraryOp {
  HeavyOpKind kind = HeavyOpKind::Matmul;
  std::string callee;   ///< resolved callee, "@" for the operator, or the nn module's class
  std::string function; ///< the reachable Python function performing it
  LineRange lines;
};

struct Kernel {
  KernelKind kind = KernelKind::Triton;
  std::string name;  ///< function name ("" for inline PTX)
  int source = -1;   ///< index into EmbedFacts::sources for CUDA kinds
  LineRange lines;   ///< in solution.py (or the sidecar named by the source)
  bool reachedFromForward = false;
  KernelWork work = KernelWork::Unknown;
  /// A Python-defined kernel nothing in the file names outside its own definition, in a file
  /// that looks nothing up by name at run time: dead code that cannot run.
  bool dead = false;
  /// The extension holding it cannot be built or imported (ExtensionBuild::reason): it never
  /// runs, however forward reaches it. Empty otherwise.
  std::string cannotRun;
  LineRange buildLines; ///< the build call, when cannotRun is set
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
  /// Heavy operations reachable from the entry points that run in PyTorch or a library.
  std::vector<LibraryOp> libraryOps;
  /// Whether each load_inline extension builds and imports (extension_build.h).
  std::vector<ExtensionBuild> builds;

  /// Kernels that may run: all but the dead ones.
  std::size_t liveKernels() const {
    std::size_t n = 0;
    for (const auto &k : kernels)
      n += !k.dead;
    return n;
  }

  bool anyReached() const {
    for (const auto &k : kernels)
      if (k.reachedFromForward)
        return true;
    return false;
  }
};

/// Sets Kernel::dead (kernel_references.cpp).
void markUnreferencedKernels(const py::PythonFacts &python, KernelInventory &inv);

KernelInventory buildInventory(const py::PythonFacts &python, const embed::EmbedFacts &embedded,
                               const cxx::CxxFacts &cxx, const triton::TritonFacts &triton);

} // namespace kbaudit::kernels
