#pragma once

// Decoding one Python string literal node into its value with exact line origins:
// prefixes (r, b, f, u), escapes, line continuations, CRLF normalisation, and f-string
// interpolations through a caller-supplied folder.

#include "kbaudit/python/facts.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <tree_sitter/api.h>

namespace kbaudit::py {

struct LiteralPrefix {
  bool raw = false;
  bool bytes = false;
  bool format = false;
};
LiteralPrefix literalPrefix(TSNode stringNode, llvm::StringRef src);

/// Appends the folded value of an `interpolation` node to `out` (whose current line is
/// `line`); returns false when it cannot be folded.
using InterpolationFolder = llvm::function_ref<bool(TSNode interpolation, StringValue &out, unsigned line)>;

/// Decodes a `string` node. Unterminated literals (syntax errors) decode up to the end of
/// the node.
StringValue decodeString(TSNode stringNode, llvm::StringRef src, InterpolationFolder fold);

} // namespace kbaudit::py
