#pragma once

// What a branch condition tests: the ConditionTag heuristics documented in facts.h.

#include "resolver.h"

#include "kbaudit/python/facts.h"

#include <llvm/ADT/StringSet.h>

namespace kbaudit::py {

struct ConditionContext {
  int scope = 0;
  llvm::StringRef selfName;                    ///< "" outside methods
  const llvm::StringSet<> *classIncrements = nullptr; ///< self attributes incremented in the class
  const llvm::StringSet<> *moduleIncrements = nullptr;
  bool moduleLevel = false;                    ///< not inside any def
};

struct ConditionSummary {
  std::vector<ConditionTag> tags;
  std::vector<std::string> calls;
  std::vector<std::string> names;
};

ConditionSummary analyzeCondition(TSNode test, const ConditionContext &ctx, Resolver &resolver, llvm::StringRef src);

/// `x is None`-style comparisons are not identity caching: true if `n` is None/True/False/
/// Ellipsis/NotImplemented.
bool isSingletonOperand(TSNode n, llvm::StringRef src);

} // namespace kbaudit::py
