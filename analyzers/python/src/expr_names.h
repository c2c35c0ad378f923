#pragma once

// The names an expression reads, from its syntax tree: what rules ask instead of searching the
// expression's text for an identifier (which also finds it in string literals, comments, keyword
// argument names, attribute names and a lambda's own parameters).

#include "tree.h"

#include "kbaudit/python/facts.h"

#include <string>
#include <vector>

namespace kbaudit::py {

struct ReadNames {
  /// Free names and dotted chains rooted in one, first occurrence first: `self.cache.get(k)` reads
  /// "self", "self.cache", "self.cache.get" and "k".
  std::vector<std::string> names;
  /// The leftmost name of an attribute, subscript or call chain (`x` of `x[0].view(-1)`); empty
  /// when the chain starts at something else (a literal, a parenthesised call result aside).
  std::string root;
  /// The links after `root` (Expr::chain); empty when `root` is.
  std::vector<ChainLink> chain;
  /// The walk stopped at its budget (nesting or name count): `names` is a prefix.
  bool truncated = false;
};

ReadNames readNames(TSNode n, llvm::StringRef src);

} // namespace kbaudit::py
