#pragma once

// Names an expression reads, from its summary text. The Python facts summarise
// arithmetic (`a_ptr + offs * stride`) as text only; this tokenizer recovers the
// identifiers in it so a pointer can be traced back to the parameters it is built from.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::triton::detail {

/// Identifiers in `text` in order of appearance, each once: attribute names after '.',
/// keyword-argument names (`base=`), string contents and Python keywords are skipped.
std::vector<std::string> identifiersIn(std::string_view text);

/// `text` is one Python identifier.
bool isIdentifier(std::string_view text);

} // namespace kbaudit::triton::detail
