#include "extraction.h"
#include "string_values.h"

#include "kbaudit/source/source_file.h"

#include <system_error>

namespace kbaudit::embed::detail {

namespace fs = std::filesystem;

namespace {

bool escapes(const fs::path &relative) {
  return relative.empty() || *relative.begin() == "..";
}

/// The bundled copy of a sidecar: same relative path, else same file name (the banner
/// names the file as the solution's directory held it).
const BundledFile *bundledCopy(const Extraction &x, const fs::path &rel) {
  for (const BundledFile &f : x.bundled)
    if (fs::path(f.name).lexically_normal() == rel)
      return &f;
  for (const BundledFile &f : x.bundled)
    if (fs::path(f.name).filename() == rel.filename())
      return &f;
  return nullptr;
}

} // namespace

SidecarText bundledText(const BundledFile &f) {
  SidecarText t;
  t.text = f.text;
  t.path = f.name;
  t.lineMap = identityLineMap(t.text);
  for (unsigned &line : t.lineMap)
    line += f.firstLine - 1;
  return t;
}

std::optional<SidecarText> findSidecar(Extraction &x, const LineRange &at, const StaticPath &path,
                                       bool diagnoseMissing) {
  const fs::path rel = fs::path(path.path).lexically_normal();
  const std::string shown = rel.generic_string();
  // The bundle is the corpus's copy of what the solution loaded; it is text already in
  // hand, so the directory rules below (which guard file reads) do not apply to it.
  if (const BundledFile *f = bundledCopy(x, rel))
    return bundledText(*f);
  if (rel.is_absolute() || escapes(rel)) {
    x.diagnose(Diagnostic::Severity::Warning, "sidecar-outside",
               "source `" + path.path +
                   "` lies outside the solution directory; kbaudit reads sidecars only from there",
               at);
    return std::nullopt;
  }
  if (x.solutionDir.empty()) {
    if (diagnoseMissing)
      x.diagnose(Diagnostic::Severity::Note, "sidecar-not-read",
                 "source `" + shown + "` was not read: no solution directory given", at);
    return std::nullopt;
  }
  const fs::path full = x.solutionDir / rel;
  std::error_code ec;
  if (!fs::is_regular_file(full, ec)) {
    if (diagnoseMissing)
      x.diagnose(Diagnostic::Severity::Warning, "sidecar-missing",
                 "source `" + shown + "` is not in the solution directory" +
                     (path.relativeToUnknownDir ? " (its directory is computed at run time)" : ""),
                 at);
    return std::nullopt;
  }
  // A symlink inside the run dir must not smuggle in a file from elsewhere.
  const fs::path real = fs::weakly_canonical(full, ec);
  const fs::path realDir = fs::weakly_canonical(x.solutionDir, ec);
  if (ec || escapes(real.lexically_relative(realDir))) {
    x.diagnose(Diagnostic::Severity::Warning, "sidecar-outside",
               "source `" + shown + "` resolves outside the solution directory", at);
    return std::nullopt;
  }
  SourceFile file = SourceFile::load(full);
  for (Diagnostic d : file.diagnostics()) {
    d.file = shown;
    x.out.diagnostics.push_back(std::move(d));
  }
  if (!file.analyzable())
    return std::nullopt;
  SidecarText t;
  t.text = file.text();
  t.file = shown;
  t.path = shown;
  t.lineMap = identityLineMap(t.text);
  return t;
}

void addSidecarSource(Extraction &x, SidecarText t, Origin origin, int module,
                      const LineRange &at, const std::string &function) {
  EmbeddedSource s;
  s.origin = origin;
  s.language = hasCudaExtension(t.path) ? Language::Cuda : Language::Cpp;
  if (origin == Origin::LoadInlineCpp)
    s.language = Language::Cpp;
  else if (origin == Origin::LoadInlineCuda || origin == Origin::CupyRawKernel ||
           origin == Origin::Jiterator)
    s.language = Language::Cuda;
  s.text = std::move(t.text);
  s.file = std::move(t.file);
  s.path = std::move(t.path);
  s.lineMap = std::move(t.lineMap);
  s.module = module;
  s.origin_lines = at;
  x.addSource(std::move(s), function);
}

void readSidecar(Extraction &x, int module, const py::Call &call, const StaticPath &path) {
  if (auto t = findSidecar(x, call.lines, path, /*diagnoseMissing=*/true))
    addSidecarSource(x, std::move(*t), Origin::LoadSidecar, module, call.lines, call.function);
}

} // namespace kbaudit::embed::detail
