#pragma once

// C++/CUDA sources a solution hands to a compiler at run time, recovered from the Python
// facts and mapped line by line back to solution.py (or to a sidecar file).

#include "kbaudit/embed/bundle.h"
#include "kbaudit/python/facts.h"
#include "kbaudit/source/diagnostic.h"
#include "kbaudit/source/line_range.h"

#include <filesystem>
#include <string>
#include <vector>

namespace kbaudit::embed {

enum class Origin {
  LoadInlineCpp,  ///< torch.utils.cpp_extension.load_inline(cpp_sources=...)
  LoadInlineCuda, ///< load_inline(cuda_sources=...)
  LoadSidecar,    ///< torch.utils.cpp_extension.load(sources=[...]) reading a file next to the solution
  WrittenFile,    ///< a string the solution writes to a .cu/.cpp/.cuh/.h file at run time
  CupyRawKernel,  ///< cupy.RawKernel(code, name) / cupy.RawModule(code=...)
  Jiterator,      ///< torch.cuda.jiterator._create_jit_fn(code)
};

enum class Language { Cpp, Cuda };

struct EmbeddedSource {
  Origin origin = Origin::LoadInlineCuda;
  Language language = Language::Cuda;
  std::string text;
  /// "solution.py", or the sidecar's file name for LoadSidecar.
  std::string file = "solution.py";
  /// lineMap[i] is the line in `file` of line i+1 of `text` (0 when unknown).
  std::vector<unsigned> lineMap;
  /// False when part of the text could not be recovered statically.
  bool complete = true;
  /// Index into EmbedFacts::modules of the extension this source belongs to, or -1.
  int module = -1;
  /// The Python expression that produced it (the load_inline call, the write call).
  LineRange origin_lines;
  /// LoadSidecar: the file's path relative to the solution directory. WrittenFile: the
  /// path the solution writes to, as far as it is static ("" when unknown).
  std::string path;

  /// solution.py line of 1-indexed embedded line `line` (0 when unknown).
  unsigned mapLine(unsigned line) const {
    return line >= 1 && line <= lineMap.size() ? lineMap[line - 1] : 0;
  }
  LineRange mapRange(unsigned begin, unsigned end) const {
    return LineRange{mapLine(begin), mapLine(end)};
  }
};

/// One compiled extension module: load_inline / load / RawModule.
struct ExtensionModule {
  /// What builds it.
  enum class Builder { LoadInline, Load, Cupy, Jiterator, Other };
  std::string name;                   ///< name= argument, "" if unknown
  std::string boundTo;                ///< Python name holding the module ("_ext", "self.ext"), "" if unknown
  std::vector<std::string> functions; ///< functions= list of load_inline (exports it generates)
  std::string function;               ///< Python function building it ("" at module level)
  LineRange lines;
  Builder builder = Builder::Other;
  /// load_inline was given functions= (it generates a PYBIND11_MODULE only then).
  bool functionsGiven = false;
  /// Every source argument folded to static text: the build sees what kbaudit sees.
  bool sourcesComplete = true;
};

/// A Python call of a function exported by an extension module: `_ext.gemm(a, b)`.
struct ExtensionCall {
  int module = -1;
  std::string exported; ///< "gemm"
  std::string function; ///< calling Python function, e.g. "ModelNew.forward"
  LineRange lines;
};

struct EmbedFacts {
  std::vector<EmbeddedSource> sources;
  std::vector<ExtensionModule> modules;
  std::vector<ExtensionCall> calls;
  std::vector<Diagnostic> diagnostics;
};

/// Recovers the embedded sources. `solutionDir` is where sidecar files are looked up
/// (empty: no sidecars read). `bundled` are sidecars appended to solution.py (see
/// bundle.h); they are found before the directory is looked at, and map to solution.py.
EmbedFacts extract(const py::PythonFacts &facts, const std::filesystem::path &solutionDir = {},
                   const std::vector<BundledFile> &bundled = {});

const char *originName(Origin o);

} // namespace kbaudit::embed
