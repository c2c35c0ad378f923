#pragma once

// Mines a parsed translation unit into facts (AST matchers over the main file), then adds
// what the AST lost to errors from a raw token scan.

#include "kbaudit/cxx/facts.h"

#include <utility>
#include <vector>

namespace clang {
class ASTContext;
}

namespace kbaudit::cxx {

struct CollectInput {
  /// Main-file byte ranges the preprocessor skipped (#if 0 ...), [begin, end).
  std::vector<std::pair<unsigned, unsigned>> skipped;
};

/// Appends to `out` in unit coordinates (see parse_unit.h); fills the recovery counters of
/// out.parses.back().
void collectFacts(clang::ASTContext &ctx, const CollectInput &input, CxxFacts &out);

} // namespace kbaudit::cxx
