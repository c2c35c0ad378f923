#pragma once

// Readings of the text of a C++ host function in an embedded extension (the lines of
// solution.py that CxxFunction::lines names), for the MEM rules that look inside exported
// functions: which locals come from an uninitialised allocator and what happens to them,
// what the function returns by name, what its parameters are called, and which macros could
// touch a name. Pure text in, plain values out: no Facts, so each answer is tested on strings.
//
// None of these readings strips comments or string literals: a `return x;` or a mention of
// `x` inside a comment counts like one in code.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic::cxxbody {

/// A local tensor declared from an allocator that leaves its memory uninitialised.
struct TensorAllocation {
  std::string name;       ///< the declared local (`out`)
  std::string allocator;  ///< as written: `at::empty`, `torch::empty_like`, `x.new_empty`
  std::size_t offset = 0; ///< where the declaration's type (`auto`, `at::Tensor`) starts in the text
  unsigned line = 0;      ///< newlines before `offset` (0: the text's first line)
};

/// Every `auto|at::Tensor|torch::Tensor NAME = (torch|at)::(empty|empty_like|empty_strided)(`
/// and `... NAME = x.new_empty(` in `body`, in text order; white space may separate the tokens
/// (at least one blank after the type). Scanning resumes after each declaration's `(`.
/// Why: memory nothing writes can only be traced from where it is allocated, and these are
/// the host-side forms of torch.empty.
std::vector<TensorAllocation> emptyAllocations(std::string_view body);

/// What the rest of a function body does with a local after the `;` that ends its declaration.
struct LocalUses {
  std::size_t returnLines = 0;   ///< whole-identifier mentions on a line that starts with the word `return`
  std::size_t otherMentions = 0; ///< every other whole-identifier mention
};

/// The uses of `a` (found in this same `body`) after its declaration; nullopt when no `;`
/// follows the declaration or the name already occurs (as a whole identifier) before it,
/// i.e. it is not a simple fresh local.
/// Why: a buffer that is only ever returned was never written by a kernel or operation.
std::optional<LocalUses> usesAfterDeclaration(std::string_view body, const TensorAllocation &a);

/// Some `#define` in `source` (its continuation lines joined by a trailing backslash
/// included) names `identifier` as a whole identifier; never for an empty identifier.
/// Why: a macro invocation may write a buffer that the function text never names.
bool macroMentions(std::string_view source, std::string_view identifier);

/// A function definition's text split at its first `{`. Views into the text passed to
/// splitDefinition; they live as long as it does.
struct Definition {
  std::string_view signature; ///< everything before the first `{`
  std::string_view body;      ///< from the first `{` to the end
  unsigned bodyLine = 0;      ///< newlines in `signature` (line of the `{` within the text)
};

/// `text` split at its first `{`; nullopt when it has none.
/// Why: parameters are read from the signature and statements from the body, never across.
std::optional<Definition> splitDefinition(std::string_view text);

/// Parameter names of a C++ signature in order (`f(torch::Tensor x, int64_t n = 4)` -> x, n):
/// the last identifier of each top-level comma-separated piece before any `=`; an unnamed
/// parameter yields its type's last word (`int` of `int *`), a piece without one "" (so
/// positions stay aligned). Empty when there is no `(...)` or nothing between the parentheses.
/// Why: a returned name is an argument of the call only when it is one of these, at a known position.
std::vector<std::string> parameterNames(std::string_view signature);

/// A `return NAME;` statement.
struct ReturnedIdentifier {
  std::string name;       ///< the returned word (any letters, digits, underscores)
  std::size_t offset = 0; ///< where `return` starts in the text
  unsigned line = 0;      ///< newlines before `offset`
};

/// Every `return NAME;` in `body` (the word `return` not part of a longer word such as
/// `co_return`, at least one blank before NAME, blanks allowed before `;`), in text order.
/// `return x.y;`, `return (x);` and `return f(x);` are not.
/// Why: a host function that returns one of its own parameters hands the caller's tensor back.
std::vector<ReturnedIdentifier> returnedIdentifiers(std::string_view body);

} // namespace kbaudit::semantic::cxxbody
