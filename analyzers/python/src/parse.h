#pragma once

// Parsing with tree-sitter, syntax-error diagnostics, and a bounded repair loop for files
// whose errors swallow valid code.
//
// tree-sitter's error recovery sometimes wraps everything after an unclosed bracket in one
// ERROR node, losing the functions and classes that follow. The repair blanks the first
// line of each error region (spaces, newlines kept, so every byte offset and line number
// stays valid) and reparses, a few times; the tree with the fewest bytes inside ERROR
// nodes wins. Diagnostics always describe the original text.

#include "kbaudit/source/diagnostic.h"

#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::py {

struct TreeDeleter {
  void operator()(TSTree *t) const { ts_tree_delete(t); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

struct ParseResult {
  TreePtr tree;         ///< null when parsing failed (timeout)
  std::string repaired; ///< the text `tree` was parsed from when it differs from the input
  std::vector<Diagnostic> diagnostics;
};

ParseResult parse(std::string_view source);

/// One diagnostic per syntax-error region of the tree (ERROR and MISSING nodes).
std::vector<Diagnostic> syntaxDiagnostics(TSNode root, std::string_view source);

/// The one diagnostic for code nested deeper than the walkers follow (`what` names it).
Diagnostic nestingTooDeep(TSNode n, unsigned limit, std::string_view what);

} // namespace kbaudit::py
