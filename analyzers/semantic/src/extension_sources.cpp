// Extension membership and solution.py placement of C++ facts (extension_sources.h).

#include "kbaudit/semantic/extension_sources.h"

namespace kbaudit::semantic {
namespace {

const embed::EmbeddedSource *sourceAt(const embed::EmbedFacts &em, int source) {
  if (source < 0 || static_cast<std::size_t>(source) >= em.sources.size())
    return nullptr;
  return &em.sources[static_cast<std::size_t>(source)];
}

/// A library doing compute that is not ATen.
bool isComputeLibrary(cxx::CallCategory c) { return cxx::isLibraryCompute(c) && c != cxx::CallCategory::Aten; }

} // namespace

int extensionModule(const embed::EmbedFacts &em, int source) {
  const embed::EmbeddedSource *s = sourceAt(em, source);
  return s ? s->module : -1;
}

bool sameExtension(const embed::EmbedFacts &em, int a, int b) {
  if (a == b)
    return true;
  const int m = extensionModule(em, b);
  return m >= 0 && extensionModule(em, a) == m;
}

bool exportServes(const embed::EmbedFacts &em, const cxx::ExportedFunction &e, const embed::ExtensionCall &call) {
  if (e.name != call.exported)
    return false;
  const int module = extensionModule(em, e.source);
  return call.module < 0 || module < 0 || module == call.module;
}

std::optional<LineRange> linesInSolution(const embed::EmbedFacts &em, int source, LineRange lines) {
  const embed::EmbeddedSource *s = sourceAt(em, source);
  if (!s || s->file != "solution.py" || !lines.valid())
    return std::nullopt;
  return lines;
}

LineRange solutionSite(const embed::EmbedFacts &em, int source, LineRange lines) {
  const embed::EmbeddedSource *s = sourceAt(em, source);
  if (s && (s->file != "solution.py" || !lines.valid()))
    return s->origin_lines;
  return lines;
}

bool extensionRunsComputeLibrary(const Facts &f, const std::vector<const kernels::Kernel *> &kernels) {
  for (const kernels::Kernel *k : kernels) {
    if (k->kind != kernels::KernelKind::CudaGlobal)
      continue;
    for (const cxx::CxxCall &c : f.cxx.calls)
      if (isComputeLibrary(c.category) && sameExtension(f.embedded, c.source, k->source))
        return true;
    for (const cxx::ApiReference &r : f.cxx.references)
      if (isComputeLibrary(r.category) && sameExtension(f.embedded, r.source, k->source))
        return true;
  }
  return false;
}

} // namespace kbaudit::semantic
