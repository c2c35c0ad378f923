#include "imports.h"

#include <llvm/ADT/StringExtras.h>

namespace kbaudit::py {

using ts::K;

namespace {

std::string compact(llvm::StringRef s) {
  std::string out;
  for (char c : s)
    if (!llvm::isSpace(c) && c != '\\')
      out.push_back(c);
  return out;
}

std::string joinModule(const std::string &module, const std::string &name) {
  if (module.empty())
    return name;
  if (module.back() == '.')
    return module + name; // `from . import x` -> ".x"
  return module + "." + name;
}

} // namespace

void listImports(TSNode stmt, llvm::StringRef src, llvm::SmallVectorImpl<ImportedName> &out) {
  K k = ts::kind(stmt);
  bool from = k == K::ImportFromStatement || k == K::FutureImportStatement;
  std::string module;
  TSNode moduleNode = ts::field(stmt, ts::F::ModuleName);
  if (k == K::ImportFromStatement)
    module = compact(ts::text(moduleNode, src));
  else if (k == K::FutureImportStatement)
    module = "__future__";
  for (TSNode c : ts::namedChildren(stmt)) {
    if (!ts::isNull(moduleNode) && ts::startByte(c) == ts::startByte(moduleNode) &&
        ts::endByte(c) == ts::endByte(moduleNode))
      continue;
    ImportedName n;
    n.fromImport = from;
    n.node = c;
    switch (ts::kind(c)) {
    case K::DottedName: {
      std::string dotted = compact(ts::text(c, src));
      if (from) {
        n.local = dotted;
        n.target = joinModule(module, dotted);
        n.bindsTo = n.target;
      } else {
        n.local = llvm::StringRef(dotted).split('.').first.str();
        n.target = dotted;
        n.bindsTo = n.local;
      }
      break;
    }
    case K::AliasedImport: {
      std::string dotted = compact(ts::text(ts::field(c, ts::F::Name), src));
      n.local = ts::text(ts::field(c, ts::F::Alias), src).str();
      n.target = from ? joinModule(module, dotted) : dotted;
      n.bindsTo = n.target;
      break;
    }
    case K::WildcardImport:
      n.local = "*";
      n.target = joinModule(module, "*");
      break;
    default:
      continue;
    }
    if (n.local.empty() || n.target.empty())
      continue;
    out.push_back(std::move(n));
  }
}

} // namespace kbaudit::py
