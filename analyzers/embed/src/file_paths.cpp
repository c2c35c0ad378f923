#include "extraction.h"
#include "string_values.h"

#include <llvm/ADT/StringRef.h>

namespace kbaudit::embed::detail {

namespace {

constexpr int kMaxDepth = 4;

/// A literal naming a C++/CUDA file among the string constants on `lines`: the facts keep
/// no operands of `(d / "k.cu")`, but its literal is there.
std::optional<StaticPath> sourceNameWithin(const FactsIndex &index, const LineRange &lines) {
  const auto strings = index.stringsWithin(lines);
  for (auto it = strings.rbegin(); it != strings.rend(); ++it)
    if ((*it)->value.complete && hasCxxExtension((*it)->value.value))
      return StaticPath{llvm::StringRef((*it)->value.value).ltrim('/').str(), true};
  return std::nullopt;
}

} // namespace

bool isOpenCall(const std::string &callee) {
  return callee == "open" || callee == "io.open" || callee == "builtins.open" ||
         callee == "codecs.open";
}

std::optional<StaticPath> pathOfProducer(const FactsIndex &index, const py::Call &c, int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  const std::string callee = index.resolve(c.callee, c.function);
  if (isOpenCall(callee)) {
    if (const py::Argument *file = argumentOf(c, "file", 0))
      return staticPath(file->value, index, c.function);
    return std::nullopt;
  }
  if (callee == "tempfile.NamedTemporaryFile") {
    if (const py::Argument *suffix = c.keywordArg("suffix"))
      if (auto s = completeString(suffix->value))
        return StaticPath{"tmp" + *s, true};
    return std::nullopt;
  }
  if (c.method == "open" && !c.receiver.empty()) {
    // Path(...).open("w") / src.open("w"): the path is the receiver.
    if (llvm::StringRef(c.receiver).endswith(")")) {
      if (const py::Call *inner = index.callWrittenAs(c.receiver, c.lines, &c))
        return pathOfProducer(index, *inner, depth + 1);
      return sourceNameWithin(index, c.lines);
    }
    return pathOfName(index, c.receiver, c, depth + 1);
  }
  return staticPathOfCall(c, index);
}

std::optional<StaticPath> pathOfName(const FactsIndex &index, const std::string &name,
                                     const py::Call &use, int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  const py::Assignment *best = nullptr;
  for (const py::Assignment *a : index.bindingsOf(name, use.function, /*lexicalOnly=*/true))
    if (a->lines.begin <= use.lines.begin && (!best || a->lines.begin > best->lines.begin))
      best = a;
  if (!best)
    return std::nullopt;
  if (const py::Call *producer = index.callOf(best->value))
    if (auto p = pathOfProducer(index, *producer, depth + 1))
      return p;
  return staticPath(best->value, index, best->function);
}

std::optional<StaticPath> pathRead(const FactsIndex &index, const py::Call &read) {
  if ((read.method != "read" && read.method != "read_text") || read.receiver.empty())
    return std::nullopt;
  const llvm::StringRef receiver(read.receiver);
  if (receiver.endswith(")")) {
    // `open(p).read()`, `Path(p).read_text()`; `(d / "k.cu").read_text()` is parenthesised
    // arithmetic, not a call, and only its literal is known.
    if (const py::Call *inner = index.callWrittenAs(read.receiver, read.lines, &read))
      if (auto p = pathOfProducer(index, *inner))
        return p;
    return sourceNameWithin(index, read.lines);
  }
  return pathOfName(index, read.receiver, read);
}

} // namespace kbaudit::embed::detail
