#include "extraction.h"
#include "string_values.h"

#include <llvm/ADT/StringRef.h>

namespace kbaudit::embed::detail {

namespace {

/// How far above a `f.write(...)` the `with open(...) as f:` may be when the facts hold
/// no binding for `f`; a with-body writing a source is short.
constexpr unsigned kWithReach = 50;

/// `open(p)` and `p.open()` default to reading; only a mode with w/a/x writes.
bool writeMode(const py::Call &opener, int modePosition) {
  const py::Argument *mode = argumentOf(opener, "mode", modePosition);
  if (!mode)
    return false;
  const auto m = completeString(mode->value);
  return !m || llvm::StringRef(*m).find_first_of("wax") != llvm::StringRef::npos;
}

struct Opener {
  const py::Call *call = nullptr;
  bool writes = false;
};

Opener asOpener(const Extraction &x, const py::Call &c) {
  const std::string callee = x.index.resolve(c.callee, c.function);
  if (isOpenCall(callee))
    return {&c, writeMode(c, 1)};
  if (c.method == "open" && !c.receiver.empty())
    return {&c, writeMode(c, 0)};
  if (callee == "tempfile.NamedTemporaryFile")
    return {&c, true};
  return {};
}

/// `with open(p, "w") as f:` when the facts record no binding for `f`: the closest
/// writing opener above the write in the same def.
const py::Call *enclosingWithOpener(const Extraction &x, const py::Call &write) {
  const py::Call *best = nullptr;
  for (const py::Call &c : x.index.facts().calls) {
    if (c.function != write.function || c.lines.begin > write.lines.begin ||
        c.lines.begin + kWithReach < write.lines.begin || &c == &write)
      continue;
    const Opener o = asOpener(x, c);
    if (o.call && o.writes && (!best || c.lines.begin > best->lines.begin))
      best = &c;
  }
  return best;
}

std::optional<StaticPath> destinationOf(const Extraction &x, const py::Call &write) {
  const std::string &receiver = write.receiver;
  if (llvm::StringRef(receiver).endswith(")")) {
    const py::Call *producer = x.index.callWrittenAs(receiver, write.lines, &write);
    return producer ? pathOfProducer(x.index, *producer) : std::nullopt;
  }
  if (auto p = pathOfName(x.index, receiver, write))
    return p;
  if (const py::Call *opener = enclosingWithOpener(x, write))
    return pathOfProducer(x.index, *opener);
  return std::nullopt;
}

bool hasExtension(const std::string &path) {
  return std::filesystem::path(path).has_extension();
}

} // namespace

void extractWrittenFile(Extraction &x, const py::Call &call) {
  if ((call.method != "write" && call.method != "write_text") || call.receiver.empty())
    return;
  const std::string receiver = x.index.resolve(call.receiver, call.function);
  if (receiver == "sys.stdout" || receiver == "sys.stderr")
    return;
  const py::Argument *data = argumentOf(call, "data", 0);
  if (!data)
    return;

  const auto dest = destinationOf(x, call);
  const bool namedSource = dest && hasCxxExtension(dest->path);
  // A file named as something else (a .json, a log) is not a source even when the text
  // mentions #include.
  if (dest && !namedSource && hasExtension(dest->path))
    return;

  const CollectedStrings found = collectStrings(data->value, x.index, call.function);
  const std::string where = namedSource ? " written to `" + dest->path + "`" : std::string();
  for (const py::Expr *e : found.strings) {
    const py::StringValue &v = *e->string;
    const bool blank = v.value.find_first_not_of(" \t\r\n") == std::string::npos;
    if (blank || (!namedSource && !looksLikeCxx(v.value))) {
      if (namedSource && v.limited)
        x.diagnose(Diagnostic::Severity::Warning, "embed-limit", "text `" + e->text + "`" + where + kCutShort,
                   call.lines);
      else if (namedSource && !v.complete)
        x.diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
                   "text `" + e->text + "`" + where + " does not fold to a static string",
                   call.lines);
      continue;
    }
    EmbeddedSource s;
    s.origin = Origin::WrittenFile;
    s.language = namedSource ? (hasCudaExtension(dest->path) ? Language::Cuda : Language::Cpp)
                             : (looksLikeCuda(v.value) ? Language::Cuda : Language::Cpp);
    s.text = v.value;
    s.lineMap = lineMapOf(v);
    s.complete = v.complete;
    s.origin_lines = call.lines;
    if (namedSource)
      s.path = dest->path;
    if (v.limited)
      x.diagnose(Diagnostic::Severity::Warning, "embed-limit", "text `" + e->text + "`" + where + kCutShort,
                 call.lines);
    else if (!v.complete)
      x.diagnose(Diagnostic::Severity::Note, "embed-partial",
                 "text `" + e->text + "`" + where +
                     " folds only in part; the parts computed at run time are missing",
                 call.lines);
    x.addSource(std::move(s), call.function);
  }
  if (namedSource)
    for (const py::Expr *e : found.unresolved)
      x.diagnose(Diagnostic::Severity::Warning, e->limited ? "embed-limit" : "embed-unresolved",
                 "text `" + e->text + "`" + where +
                     (e->limited ? std::string(kCutShort) : std::string(" does not fold to a static string")),
                 call.lines);
}

} // namespace kbaudit::embed::detail
