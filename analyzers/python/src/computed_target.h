#pragma once

// Library objects reached through computed receivers. `torch.allclose = f` names its target;
// `type(torch.cuda.Event()).elapsed_time = f`, `getattr(torch, "cuda").synchronize = f`,
// `sys.modules["torch"].allclose = f`, `vars(torch)["allclose"] = f` and
// `setattr(mod, name, f)` inside `for name in (...)` reach the same library objects without
// naming them, so the resolver's plain chains miss them. This fills
// Assignment::computedTarget and Assignment::nameCandidates.

#include "evaluator.h"
#include "resolver.h"
#include "scope.h"

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::py {

class ComputedTargets {
public:
  ComputedTargets(const ScopeTable &table, Resolver &resolver, Evaluator &eval, llvm::StringRef src)
      : table_(table), resolver_(resolver), eval_(eval), src_(src) {}

  /// The dotted library object `expr` denotes (see Assignment::computedTarget for the
  /// spelling), or nullopt when it is not rooted in an import.
  std::optional<std::string> object(TSNode expr, int scope, unsigned depth = 0);

  /// Fills `a.computedTarget` / `a.nameCandidates` for an assignment target (an attribute
  /// whose receiver is computed, or an item of a library's `__dict__`).
  void describeTarget(TSNode target, int scope, Assignment &a);
  /// The same for `setattr(obj, name, value)`.
  void describeSetattr(TSNode obj, TSNode name, int scope, Assignment &a);
  /// The same for `type(obj).attr = value` at the start of a statement, which the grammar
  /// reads as a `type` alias statement: `chain` is the alias's "name" (`(obj).attr`) and
  /// `head` the parenthesised expression at its start, the argument of `type(...)`.
  void describeTypeTarget(TSNode chain, TSNode head, int scope, Assignment &a);

private:
  const ScopeTable &table_;
  Resolver &resolver_;
  Evaluator &eval_;
  llvm::StringRef src_;
  /// While set, this node stands for `type(<its contents>)` (see describeTypeTarget).
  TSNode typeHead_{};

  std::optional<std::string> staticString(TSNode n, int scope);
  /// The attribute name an item key or setattr name gives: its static string, or "<dynamic>"
  /// with the loop values it takes added to `candidates`.
  std::string attributeName(TSNode name, int scope, std::vector<std::string> &candidates);
  std::vector<std::string> loopValues(TSNode name, int scope);
  std::vector<std::string> columnValues(TSNode iterable, int column, int scope, unsigned depth);
  std::vector<std::string> itemStrings(TSNode iterable, int scope, unsigned depth);
  const Binding *valueBinding(TSNode identifier, int scope);
};

} // namespace kbaudit::py
