#include "extraction.h"
#include "string_values.h"

#include <llvm/ADT/StringRef.h>

namespace kbaudit::embed::detail {

namespace {

constexpr int kMaxDepth = 4;

bool isJoin(std::string_view callee) {
  return callee == "os.path.join" || callee == "posixpath.join" || callee == "pathlib.Path" ||
         callee == "pathlib.PurePath" || callee == "pathlib.PosixPath" || callee == "Path";
}

bool isPassThrough(std::string_view callee) {
  return callee == "str" || callee == "os.fspath" || callee == "os.path.abspath" ||
         callee == "os.path.realpath" || callee == "os.path.normpath" ||
         callee == "os.path.expanduser";
}

/// os.path.join semantics over the parts: an absolute part restarts the path, and a part
/// that is not static (a directory variable) drops what came before it.
std::optional<StaticPath> joinParts(const py::Call &call, const FactsIndex &index, int depth) {
  std::optional<StaticPath> joined;
  bool unknownHead = false;
  for (const py::Argument &a : call.args) {
    if (!a.keyword.empty())
      continue;
    auto part = staticPath(a.value, index, call.function, depth + 1);
    if (!part) {
      joined.reset();
      unknownHead = true;
    } else if (part->relativeToUnknownDir || llvm::StringRef(part->path).startswith("/")) {
      joined = part;
      unknownHead = part->relativeToUnknownDir;
    } else if (!joined) {
      joined = StaticPath{part->path, unknownHead};
    } else {
      joined->path += (llvm::StringRef(joined->path).endswith("/") ? "" : "/") + part->path;
    }
  }
  return joined;
}

} // namespace

std::optional<StaticPath> staticPathOfCall(const py::Call &call, const FactsIndex &index,
                                           int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  const std::string callee = index.resolve(call.callee, call.function);
  if (isJoin(callee))
    return joinParts(call, index, depth);
  if (isPassThrough(callee))
    if (const py::Argument *a = call.positionalArg(0))
      return staticPath(a->value, index, call.function, depth + 1);
  return std::nullopt;
}

std::optional<StaticPath> staticPath(const py::Expr &e, const FactsIndex &index,
                                     std::string_view function, int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  if (e.string) {
    if (e.string->complete)
      return StaticPath{e.string->value, false};
    // `_DIR + "/k.cu"`, f"{build}/k.cu": the literal tail under an unknown directory.
    llvm::StringRef tail(e.string->value);
    tail = tail.ltrim('/');
    if (tail.empty())
      return std::nullopt;
    return StaticPath{tail.str(), true};
  }
  switch (e.kind) {
  case py::ExprKind::Call: {
    const py::Call *call = index.callOf(e);
    return call ? staticPathOfCall(*call, index, depth) : std::nullopt;
  }
  case py::ExprKind::Name:
  case py::ExprKind::Attribute: {
    // The binding closest before the use; later ones have not happened yet.
    const py::Assignment *best = nullptr;
    for (const py::Assignment *a : index.bindingsOf(e.text, function, /*lexicalOnly=*/true))
      if (a->op == "=" && (!best || (a->lines.begin <= e.lines.begin &&
                                     (best->lines.begin > e.lines.begin ||
                                      a->lines.begin > best->lines.begin))))
        best = a;
    if (!best)
      return std::nullopt;
    return staticPath(best->value, index, best->function, depth + 1);
  }
  case py::ExprKind::BinaryOp: {
    // `build_dir / "kernels.cu"`: the facts keep no operands, but the literal is among
    // the string constants on those lines.
    const auto strings = index.stringsWithin(e.lines);
    for (auto it = strings.rbegin(); it != strings.rend(); ++it)
      if ((*it)->value.complete && !(*it)->value.value.empty())
        return StaticPath{llvm::StringRef((*it)->value.value).ltrim('/').str(), true};
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

} // namespace kbaudit::embed::detail
