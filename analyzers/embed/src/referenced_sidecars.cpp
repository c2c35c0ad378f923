#include "extraction.h"
#include "string_values.h"

#include <llvm/ADT/StringRef.h>

#include <set>

namespace kbaudit::embed::detail {

namespace fs = std::filesystem;

namespace {

/// A literal that can only be a relative path to a C++/CUDA file ("kernels.cu",
/// "csrc/gemm.cuh"), not prose that mentions one.
bool namesRelativeSource(llvm::StringRef s) {
  return s.size() < 256 && hasCxxExtension(s.str()) && !s.startswith("/") &&
         !s.contains("..") && s.find_first_of(" \t\r\n*?{}$%") == llvm::StringRef::npos;
}

std::string fileName(const std::string &path) { return fs::path(path).filename().string(); }

} // namespace

void extractReferencedSidecars(Extraction &x) {
  std::set<std::string> claimed;
  for (const EmbeddedSource &s : x.out.sources)
    if (!s.path.empty())
      claimed.insert(fileName(s.path));

  for (const py::StringConstant &c : x.index.facts().strings) {
    if (!c.value.complete || c.docstring || !namesRelativeSource(c.value.value) ||
        claimed.count(fileName(c.value.value)))
      continue;
    // Naming a file is not loading it, so a missing one is no finding.
    if (auto text = findSidecar(x, c.lines, StaticPath{c.value.value, false},
                                /*diagnoseMissing=*/false)) {
      claimed.insert(fileName(c.value.value));
      addSidecarSource(x, std::move(*text), Origin::LoadSidecar, -1, c.lines, c.function);
    }
  }
  // The corpus appends exactly the files the solution loaded; one that no step above
  // claimed is compiled some way kbaudit does not model (nvcc in a subprocess, ctypes).
  for (const BundledFile &f : x.bundled)
    if (hasCxxExtension(f.name) && !claimed.count(fileName(f.name))) {
      claimed.insert(fileName(f.name));
      addSidecarSource(x, bundledText(f), Origin::LoadSidecar, -1, {}, "");
    }
}

} // namespace kbaudit::embed::detail
