#pragma once

// The state one extract() run threads through its steps, and the steps themselves.
// Each step lives in its own file; extract.cpp only sequences them.

#include "facts_index.h"
#include "kbaudit/embed/embedded_source.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::embed::detail {

inline constexpr const char *kLoadInline = "torch.utils.cpp_extension.load_inline";
inline constexpr const char *kLoad = "torch.utils.cpp_extension.load";

/// The argument passed as `keyword=` or, failing that, at `position` (-1: keyword only).
inline const py::Argument *argumentOf(const py::Call &call, std::string_view keyword,
                                      int position) {
  if (const py::Argument *a = call.keywordArg(keyword))
    return a;
  return position >= 0 ? call.positionalArg(static_cast<unsigned>(position)) : nullptr;
}

/// Whether the call unpacks `*args` / `**kwargs`, which may hide any argument.
inline bool unpacksArguments(const py::Call &call) {
  for (const py::Argument &a : call.args)
    if (a.keyword == "*" || a.keyword == "**")
      return true;
  return false;
}

/// `call` with each `**kwargs` whose name is bound to `dict(key=value, ...)` replaced by
/// those keyword arguments (`kwargs = dict(name=..., cuda_sources=src); load_inline(**kwargs)`).
/// Unpackings that cannot be expanded stay.
py::Call expandKeywordUnpacking(const FactsIndex &index, const py::Call &call);

struct Extraction {
  Extraction(const FactsIndex &idx, std::filesystem::path dir,
             const std::vector<BundledFile> &bundledFiles)
      : index(idx), solutionDir(std::move(dir)), bundled(bundledFiles) {}

  const FactsIndex &index;
  std::filesystem::path solutionDir;
  const std::vector<BundledFile> &bundled;
  EmbedFacts out;
  /// The call that created each module, parallel to out.modules.
  std::vector<const py::Call *> moduleCalls;
  /// The Python def each source was produced in, parallel to out.sources.
  std::vector<std::string> sourceFunctions;

  int addModule(const py::Call &call, ExtensionModule module);
  void addSource(EmbeddedSource source, const std::string &function);
  void diagnose(Diagnostic::Severity severity, std::string code, std::string message,
                const LineRange &lines, std::string file = "solution.py");

  /// Adds one source per string `arg` holds, with an embed-partial note for each that did
  /// not fold completely and an embed-unresolved warning for each part that did not fold.
  /// Returns whether every part of `arg` is known (folded whole, or read from a sidecar).
  bool addStringSources(const py::Expr &arg, const py::Call &call, Origin origin,
                        Language language, int module, const char *what);
};

/// torch.utils.cpp_extension.load_inline(name, cpp_sources, cuda_sources, functions=...).
void extractLoadInline(Extraction &x, const py::Call &call);
/// torch.utils.cpp_extension.load(name, sources=[...]): sidecar files next to the solution.
void extractLoad(Extraction &x, const py::Call &call);
/// cupy.RawKernel / cupy.RawModule / torch.cuda.jiterator._create_jit_fn.
bool extractRuntimeCompiled(Extraction &x, const py::Call &call);
/// f.write(SRC) / Path(...).write_text(SRC) of C++/CUDA text to a file.
void extractWrittenFile(Extraction &x, const py::Call &call);
/// Python names holding each module, and the calls of their exported functions.
void extractExtensionCalls(Extraction &x);

/// A path the solution names statically, relative to its directory when it is built
/// from a directory expression plus literal parts (`os.path.join(_HERE, "k.cu")`).
struct StaticPath {
  std::string path;
  bool relativeToUnknownDir = false; ///< a non-literal head was dropped
};
std::optional<StaticPath> staticPath(const py::Expr &e, const FactsIndex &index,
                                     std::string_view function, int depth = 0);
/// The same for a path-building call (`os.path.join(...)`, `Path(...)`, `str(p)`).
std::optional<StaticPath> staticPathOfCall(const py::Call &call, const FactsIndex &index,
                                           int depth = 0);

/// A file's text and where its lines are: in the sidecar itself, or in solution.py for a
/// sidecar appended to it (bundle.h).
struct SidecarText {
  std::string text;
  std::string file = "solution.py";
  std::string path;
  std::vector<unsigned> lineMap;
};

/// The file `path` names, from the bundle or the solution directory. Paths that leave the
/// directory are refused with a diagnostic; a missing file is diagnosed on request.
std::optional<SidecarText> findSidecar(Extraction &x, const LineRange &at, const StaticPath &path,
                                       bool diagnoseMissing);
SidecarText bundledText(const BundledFile &f);
/// Adds `t` as a source; load_inline/cupy/jiterator origins fix the language, others take
/// it from the file extension.
void addSidecarSource(Extraction &x, SidecarText t, Origin origin, int module,
                      const LineRange &at, const std::string &function);

/// Reads a sidecar named by `path` as a LoadSidecar source of `module`.
void readSidecar(Extraction &x, int module, const py::Call &call, const StaticPath &path);

/// Where a file object or path object produced by `producer` points (`open(p, "w")`,
/// `Path(d) / "k.cu"`, `tempfile.NamedTemporaryFile(suffix=".cu")`).
std::optional<StaticPath> pathOfProducer(const FactsIndex &index, const py::Call &producer,
                                         int depth = 0);
/// What `name` is bound to where `use` runs, as a path (the closest binding above it).
std::optional<StaticPath> pathOfName(const FactsIndex &index, const std::string &name,
                                     const py::Call &use, int depth = 0);
/// The path a `.read()` / `.read_text()` call reads (`open(p).read()`, `(d / "k.cu").read_text()`).
std::optional<StaticPath> pathRead(const FactsIndex &index, const py::Call &read);
/// `open`, `io.open`, ... : calls that open a file by path.
bool isOpenCall(const std::string &resolvedCallee);

/// Sidecars nothing loads through a recognised call but the solution names (`nvcc` on
/// `os.path.join(_HERE, "kernels.cu")`), and appended ones no step claimed.
void extractReferencedSidecars(Extraction &x);

} // namespace kbaudit::embed::detail
