#include "extraction.h"

#include "string_values.h"

namespace kbaudit::embed::detail {

namespace {

/// The dict(...) call a `**` argument unpacks, if it is one.
const py::Call *unpackedDict(const FactsIndex &index, const py::Expr &value,
                             const py::Call &use) {
  const py::Expr *e = &value;
  if (value.kind == py::ExprKind::Name) {
    const py::Assignment *best = nullptr;
    for (const py::Assignment *a : index.bindingsOf(value.text, use.function, true))
      if (a->op == "=" && a->lines.begin <= use.lines.begin &&
          (!best || a->lines.begin > best->lines.begin))
        best = a;
    if (!best)
      return nullptr;
    e = &best->value;
  }
  const py::Call *c = index.callOf(*e);
  return c && index.resolve(c->callee, c->function) == "dict" ? c : nullptr;
}

/// The `.read()` / `.read_text()` call an argument is, or its name was last bound to.
const py::Call *readCallOf(const FactsIndex &index, const py::Expr &e, const py::Call &use) {
  const py::Expr *value = &e;
  if (e.kind == py::ExprKind::Name) {
    const py::Assignment *best = nullptr;
    for (const py::Assignment *a : index.bindingsOf(e.text, use.function, true))
      if (a->op == "=" && a->lines.begin <= use.lines.begin &&
          (!best || a->lines.begin > best->lines.begin))
        best = a;
    if (!best)
      return nullptr;
    value = &best->value;
  }
  const py::Call *c = index.callOf(*value);
  return c && (c->method == "read" || c->method == "read_text") ? c : nullptr;
}

} // namespace

py::Call expandKeywordUnpacking(const FactsIndex &index, const py::Call &call) {
  py::Call out = call;
  out.args.clear();
  std::vector<py::Argument> added;
  for (const py::Argument &a : call.args) {
    const py::Call *dict = a.keyword == "**" ? unpackedDict(index, a.value, call) : nullptr;
    if (!dict) {
      out.args.push_back(a);
      continue;
    }
    for (const py::Argument &k : dict->args)
      if (!k.keyword.empty() && k.keyword != "*" && k.keyword != "**")
        added.push_back(k);
  }
  // Explicit keywords win over unpacked ones, as Python would reject duplicates anyway.
  for (py::Argument &k : added)
    if (!out.keywordArg(k.keyword))
      out.args.push_back(std::move(k));
  return out;
}

int Extraction::addModule(const py::Call &call, ExtensionModule module) {
  module.lines = call.lines;
  module.function = call.function;
  out.modules.push_back(std::move(module));
  moduleCalls.push_back(&call);
  return static_cast<int>(out.modules.size()) - 1;
}

void Extraction::addSource(EmbeddedSource source, const std::string &function) {
  out.sources.push_back(std::move(source));
  sourceFunctions.push_back(function);
}

void Extraction::diagnose(Diagnostic::Severity severity, std::string code, std::string message,
                          const LineRange &lines, std::string file) {
  out.diagnostics.push_back(
      Diagnostic{severity, std::move(code), std::move(message), std::move(file), lines});
}

bool Extraction::addStringSources(const py::Expr &arg, const py::Call &call, Origin origin,
                                  Language language, int module, const char *what) {
  const CollectedStrings found = collectStrings(arg, index, call.function);
  bool complete = true;
  for (const py::Expr *e : found.strings) {
    const py::StringValue &v = *e->string;
    complete = complete && v.complete && !v.limited;
    if (v.value.find_first_not_of(" \t\r\n") == std::string::npos) {
      // `cpp_sources=""` is the usual way to say "no C++ part"; only a string that lost
      // all of its parts to folding is a recovery failure.
      if (v.limited)
        diagnose(Diagnostic::Severity::Warning, "embed-limit", std::string(what) + " `" + e->text + "`" + kCutShort,
                 call.lines);
      else if (!v.complete)
        diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
                 std::string(what) + " `" + e->text + "` does not fold to a static string",
                 call.lines);
      continue;
    }
    EmbeddedSource s;
    s.origin = origin;
    s.language = language;
    s.text = v.value;
    s.lineMap = lineMapOf(v);
    s.complete = v.complete;
    s.module = module;
    s.origin_lines = call.lines;
    if (v.limited)
      diagnose(Diagnostic::Severity::Warning, "embed-limit", std::string(what) + " `" + e->text + "`" + kCutShort,
               call.lines);
    else if (!v.complete)
      diagnose(Diagnostic::Severity::Note, "embed-partial",
               std::string(what) + " `" + e->text +
                   "` folds only in part; the parts computed at run time are missing",
               call.lines);
    addSource(std::move(s), call.function);
  }
  for (const py::Expr *e : found.unresolved) {
    // `cuda_sources=open("k.cu").read()`: the text is a file's, which may be at hand.
    if (const py::Call *read = readCallOf(index, *e, call)) {
      if (auto path = pathRead(index, *read)) {
        if (auto text = findSidecar(*this, call.lines, *path, /*diagnoseMissing=*/false)) {
          addSidecarSource(*this, std::move(*text), origin, module, call.lines, call.function);
          continue;
        }
        complete = false;
        diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
                 std::string(what) + " `" + e->text + "` reads `" + path->path +
                     "` at run time, which is not in the solution directory",
                 call.lines);
        continue;
      }
    }
    complete = false;
    if (e->limited)
      diagnose(Diagnostic::Severity::Warning, "embed-limit", std::string(what) + " `" + e->text + "`" + kCutShort,
               call.lines);
    else
      diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
               std::string(what) + " `" + e->text + "` does not fold to a static string",
               call.lines);
  }
  return complete;
}

} // namespace kbaudit::embed::detail
