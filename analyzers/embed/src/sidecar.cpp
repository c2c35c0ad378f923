#include "extraction.h"
#include "string_values.h"

namespace kbaudit::embed::detail {

namespace fs = std::filesystem;

namespace {

/// Links WrittenFile sources to the module that compiles them, so the file the solution
/// writes and then loads is one source, not a written one plus a missing sidecar.
bool linkWritten(Extraction &x, int module, const std::string &fileName) {
  bool linked = false;
  for (EmbeddedSource &s : x.out.sources)
    if (s.origin == Origin::WrittenFile && !s.path.empty() &&
        fs::path(s.path).filename().string() == fileName) {
      if (s.module < 0)
        s.module = module;
      linked = true;
    }
  return linked;
}

/// For a source path that does not fold (`str(src)`): a file written by the same def, or
/// one enclosing it, is the file being compiled.
bool linkWrittenInScope(Extraction &x, int module, const py::Call &call) {
  bool linked = false;
  for (std::size_t i = 0; i < x.out.sources.size(); ++i) {
    EmbeddedSource &s = x.out.sources[i];
    const std::string &fn = x.sourceFunctions[i];
    if (s.origin == Origin::WrittenFile && s.module < 0 &&
        (isWithin(call.function, fn) || isWithin(fn, call.function))) {
      s.module = module;
      linked = true;
    }
  }
  return linked;
}

} // namespace

void extractLoad(Extraction &x, const py::Call &written) {
  const py::Call call = expandKeywordUnpacking(x.index, written);
  ExtensionModule mod;
  mod.builder = ExtensionModule::Builder::Load;
  if (const py::Argument *name = argumentOf(call, "name", 0))
    mod.name = completeString(name->value).value_or("");
  if (const py::Assignment *a = x.index.assignmentOf(written))
    mod.boundTo = a->target;
  const int id = x.addModule(written, std::move(mod));

  const py::Argument *sources = argumentOf(call, "sources", 1);
  if (!sources) {
    if (unpacksArguments(call))
      x.diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
                 "load() sources are passed through argument unpacking", call.lines);
    return;
  }
  std::vector<const py::Expr *> items;
  const py::Expr &v = sources->value;
  if (!v.elements.empty())
    for (const py::Expr &e : v.elements)
      items.push_back(&e);
  else if (v.string || (v.kind != py::ExprKind::List && v.kind != py::ExprKind::Tuple &&
                        v.kind != py::ExprKind::None))
    items.push_back(&v);

  for (const py::Expr *item : items) {
    const auto path = staticPath(*item, x.index, call.function);
    if (!path) {
      if (!linkWrittenInScope(x, id, call))
        x.diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
                   "load() source `" + item->text + "` is not a static path", call.lines);
      continue;
    }
    if (linkWritten(x, id, fs::path(path->path).filename().string()))
      continue;
    readSidecar(x, id, call, *path);
  }
}

} // namespace kbaudit::embed::detail
