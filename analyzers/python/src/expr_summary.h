#pragma once

// Expr summaries for call arguments and assignment values.

#include "evaluator.h"
#include "resolver.h"

namespace kbaudit::py {

class ExprSummarizer {
public:
  ExprSummarizer(Evaluator &eval, Resolver &resolver, llvm::StringRef src)
      : eval_(eval), resolver_(resolver), src_(src) {}

  Expr summarize(TSNode n, int scope, unsigned depth = 0);

private:
  Evaluator &eval_;
  Resolver &resolver_;
  llvm::StringRef src_;
};

} // namespace kbaudit::py
