#pragma once

// Alias resolution: a name or attribute chain as written -> the dotted name it denotes
// through imports ("F.linear" -> "torch.nn.functional.linear"). Module aliases made by
// plain assignment (`cpp = torch.utils.cpp_extension`) and importlib.import_module("x")
// count as imports too, since hiding an import behind them is cheap.

#include "scope.h"

#include <optional>
#include <utility>
#include <string>
#include <unordered_map>

namespace kbaudit::py {

struct Resolution {
  std::string resolved;      ///< dotted name after alias resolution (or the text as written)
  bool throughImport = false; ///< the head name is bound by an import
  bool pure = false;          ///< the expression is a plain name/attribute chain
  /// The head is a builtin's name bound by the file itself (a parameter `id`, `type = ...`).
  bool shadowsBuiltin = false;
};

class Resolver {
public:
  Resolver(const ScopeTable &table, llvm::StringRef src) : table_(table), src_(src) {}

  /// Resolves an identifier or attribute chain; also a call/subscript chain that starts
  /// with a name, rendered with abbreviated arguments: `F.pad(x, p).cuda` ->
  /// "torch.nn.functional.pad(...).cuda", `k[grid]` -> "k[...]".
  Resolution resolve(TSNode expr, int scope, unsigned depth = 0);
  /// resolve() when the chain's head is bound by an import (throughImport); nullopt otherwise,
  /// without spelling out what a chain not through an import resolves to (most name reads).
  std::optional<Resolution> resolveImported(TSNode expr, int scope);
  /// `getattr(obj, "name")` with a constant name (the builtin, however aliased): the object
  /// node and the name; a null node otherwise.
  std::pair<TSNode, std::string> constantGetattr(TSNode call, int scope, unsigned depth = 0);
  /// Import target of `name` as seen at `pos` in `scope`, if it is bound by an import.
  std::optional<std::string> importTarget(llvm::StringRef name, int scope, uint32_t pos, unsigned depth = 0);

private:
  const ScopeTable &table_;
  llvm::StringRef src_;
  std::unordered_map<const Binding *, std::optional<std::string>> aliasMemo_;

  std::optional<std::string> aliasOf(const Binding &b, unsigned depth);
  /// resolve(); with `importsOnly`, an answer not through an import is left unspelled.
  Resolution compute(TSNode expr, int scope, unsigned depth, bool importsOnly);
  /// The builtin `name` denotes at `pos`: itself when unbound and watched, or the builtin a
  /// plain alias chain (`_ident = id`) leads to; nullopt otherwise.
  std::optional<std::string> builtinAlias(llvm::StringRef name, int scope, uint32_t pos, unsigned depth = 0);
  /// builtinAlias once the binding the use sees is known (null: none).
  std::optional<std::string> builtinAliasOf(const Binding *seen, llvm::StringRef name, unsigned depth);
  /// importTarget, also giving the first binding its lookup visits (the one the use sees).
  std::optional<std::string> importTarget(llvm::StringRef name, int scope, uint32_t pos, unsigned depth,
                                          const Binding *&seen);
};

/// Builtin-looking callee: resolves to `name` itself (not imported, not redefined).
inline bool isBuiltinCall(const Resolution &r, llvm::StringRef name) {
  return r.pure && !r.throughImport && !r.shadowsBuiltin && r.resolved == name;
}

} // namespace kbaudit::py
