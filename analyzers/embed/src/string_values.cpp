#include "string_values.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>

namespace kbaudit::embed::detail {

namespace {

bool holdsNoString(const py::Expr &e) {
  return e.kind == py::ExprKind::None ||
         ((e.kind == py::ExprKind::List || e.kind == py::ExprKind::Tuple) && e.elements.empty());
}

/// A name whose every visible binding is None or an empty list: an optional source left
/// out on purpose (`_CPP = []`), which is not a recovery failure.
bool boundToNothing(const py::Expr &e, const FactsIndex &index, std::string_view function) {
  if (e.kind != py::ExprKind::Name && e.kind != py::ExprKind::Attribute)
    return false;
  const auto bindings = index.bindingsOf(e.text, function);
  return !bindings.empty() &&
         std::all_of(bindings.begin(), bindings.end(),
                     [](const py::Assignment *a) { return holdsNoString(a->value); });
}

void collect(const py::Expr &e, const FactsIndex &index, std::string_view function,
             CollectedStrings &out) {
  if (e.string) {
    out.strings.push_back(&e);
    return;
  }
  if (!e.elements.empty()) {
    for (const py::Expr &item : e.elements)
      collect(item, index, function, out);
    return;
  }
  if (holdsNoString(e) || boundToNothing(e, index, function))
    return;
  out.unresolved.push_back(&e);
}

} // namespace

CollectedStrings collectStrings(const py::Expr &e, const FactsIndex &index,
                                std::string_view function) {
  CollectedStrings out;
  collect(e, index, function, out);
  return out;
}

unsigned lineCount(std::string_view text) {
  if (text.empty())
    return 0;
  auto n = static_cast<unsigned>(std::count(text.begin(), text.end(), '\n'));
  return text.back() == '\n' ? n : n + 1;
}

std::vector<unsigned> lineMapOf(const py::StringValue &value) {
  std::vector<unsigned> map = value.lineOrigins;
  map.resize(lineCount(value.value), 0);
  return map;
}

std::vector<unsigned> identityLineMap(std::string_view text) {
  std::vector<unsigned> map(lineCount(text));
  for (unsigned i = 0; i < map.size(); ++i)
    map[i] = i + 1;
  return map;
}

bool looksLikeCuda(std::string_view text) {
  const llvm::StringRef t(text.data(), text.size());
  return t.contains("__global__") || t.contains("__device__") || t.contains("<<<");
}

bool looksLikeCxx(std::string_view text) {
  return looksLikeCuda(text) || llvm::StringRef(text.data(), text.size()).contains("#include");
}

bool hasCudaExtension(std::string_view path) {
  const llvm::StringRef p(path.data(), path.size());
  return p.endswith_insensitive(".cu") || p.endswith_insensitive(".cuh");
}

bool hasCxxExtension(std::string_view path) {
  const llvm::StringRef p(path.data(), path.size());
  for (const char *ext : {".cpp", ".cc", ".cxx", ".h", ".hpp"})
    if (p.endswith_insensitive(ext))
      return true;
  return hasCudaExtension(path);
}

std::optional<std::string> completeString(const py::Expr &e) {
  if (e.string && e.string->complete)
    return e.string->value;
  return std::nullopt;
}

std::vector<std::string> stringList(const py::Expr &e) {
  std::vector<std::string> out;
  if (auto s = completeString(e)) {
    out.push_back(*s);
    return out;
  }
  for (const py::Expr &item : e.elements)
    if (auto s = completeString(item))
      out.push_back(*s);
  return out;
}

} // namespace kbaudit::embed::detail
