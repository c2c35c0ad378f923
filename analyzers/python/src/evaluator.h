#pragma once

// Constant folding of expressions: string literals and their concatenations, names bound
// to constants, numbers, %/format/f-strings/join/replace with static arguments. Results
// are memoised per node, so a 100 KB kernel source referenced from ten call sites is
// folded once.

#include "resolver.h"
#include "scope.h"
#include "value.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <unordered_map>
#include <unordered_set>

namespace kbaudit::py {

class Evaluator {
public:
  Evaluator(const ScopeTable &table, Resolver &resolver, llvm::StringRef src)
      : table_(table), resolver_(resolver), src_(src) {}

  /// Folds `n` as written in `scope`. Never null.
  ValuePtr eval(TSNode n, int scope, unsigned depth = 0);
  /// Value of `name` as seen at byte `pos` of `scope` (through its binding).
  ValuePtr evalName(llvm::StringRef name, int scope, uint32_t pos, unsigned depth);

  /// True if `n` was folded as a piece of a larger string expression (its value is part
  /// of that expression's StringConstant).
  bool consumed(TSNode n) const { return consumed_.count(ts::key(n)) != 0; }
  /// True if a string literal is part of `n` syntactically (not only through a name).
  bool literalRooted(TSNode n, unsigned depth = 0) const;

private:
  const ScopeTable &table_;
  Resolver &resolver_;
  llvm::StringRef src_;
  llvm::DenseMap<ts::NodeKey, ValuePtr, ts::NodeKeyInfo> memo_;
  std::unordered_map<const Binding *, ValuePtr> bindingMemo_;
  std::unordered_set<const Binding *> inProgress_;
  llvm::DenseSet<ts::NodeKey, ts::NodeKeyInfo> consumed_;
  bool truncated_ = false; ///< the current computation hit the depth limit or a cycle

  ValuePtr compute(TSNode n, int scope, unsigned depth);
  ValuePtr evalBinding(const Binding &b, llvm::StringRef name, unsigned depth);
  ValuePtr evalString(TSNode n, int scope, unsigned depth);
  ValuePtr evalCall(TSNode n, int scope, unsigned depth);
  ValuePtr evalMethod(TSNode receiver, llvm::StringRef method, const ts::Children &args, int scope, unsigned depth);
  ValuePtr combine(llvm::StringRef op, const ValuePtr &l, const ValuePtr &r, unsigned depth);
  /// The items of a sequence value folded one by one (null for unknown items).
  std::vector<ValuePtr> itemValues(const Value &seq, unsigned depth);
  void consume(TSNode n) { consumed_.insert(ts::key(n)); }
};

ValuePtr unknownValue();
/// Unknown because an evaluator limit was hit (Value::limited).
ValuePtr limitedValue();

} // namespace kbaudit::py
