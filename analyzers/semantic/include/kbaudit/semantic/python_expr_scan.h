#pragma once

// Readings of Python expression text (a branch condition, an assignment's value, a dict
// literal) for the rules that ask what an expression looks at: a handful of an input's
// elements (MEM004's sampled cache key), one reduction of the whole input (MEM004's
// checksum), or a table of results keyed by problem shape (RUB007). Pure text in, plain
// values out: no Facts, so each answer is tested on strings.
//
// The text is read as written: string literals and comments are not skipped.

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kbaudit::semantic::pyexpr {

/// Subscript contents made only of constants (digits, `:`, `,`, blanks, `-`, `.`) with at
/// least one digit and at least one `:` or `,` (`0, :16`, `::4096`, `..., :8`); a lone integer
/// (`3`) is not one, nor is anything naming a variable (`:n`).
/// Why: such an index selects a fixed handful of elements whatever the input's size, while
/// `state[3]` indexes a container as often as a tensor.
bool isConstantSlice(std::string_view index);

/// The first `NAME[INDEX]` in `text`, optionally through a chain of view-like calls whose
/// arguments hold no parentheses (`x.flatten()[:64]`, `x.view(-1).float()[::1024]`; methods
/// view, reshape, flatten, ravel, contiguous, detach, float), where NAME is a whole word that is
/// one of `inputs` and not an attribute (`self.x[...]`), and INDEX holds no brackets and is a
/// constant slice; returned as written, "" when there is none.
/// Why: a cache revalidated on such a sample never compares the rest of the input.
std::string constantIndexSample(std::string_view text, const std::set<std::string> &inputs);

/// The first reduction of a whole input in `text`: NAME, any chain of `.method(args)` calls
/// whose arguments hold no parentheses, then `.sum(`/`.mean(`/`.norm(`/`.amax(`/`.amin(`/
/// `.max(`/`.min(`, NAME a whole word in `inputs` and not an attribute; the longest such chain,
/// returned as written up to the reduction's `(` followed by `...)` (`x.abs().sum(...)`), ""
/// when there is none.
/// Why: a single reduction compared against stored state is a checksum that stands for the contents.
std::string wholeTensorReduction(std::string_view text, const std::set<std::string> &inputs);

/// A dict literal's text holds both a literal tensor (`torch.tensor(` or `torch.as_tensor(`)
/// and a key that is a tuple of two or more integers (`{(1024, 4096): ...`, `, (8, 16,): ...`,
/// after `{` or `,`, blanks allowed anywhere inside).
/// Why: results stored per problem shape answer the grader without computing.
bool shapeKeyedLiteralTable(std::string_view dictText);

/// `text` without leading and trailing spaces, tabs and newlines (other white space kept).
/// Why: names read out of expression text carry the layout around them; this is the trim the
/// timing rules have always applied to callable names.
std::string_view trimLayout(std::string_view text);

/// The first argument of a call written as `text` (`functools.partial(fn, 2)` -> `fn`): what
/// lies between its first `(` and the next `,` or `)`, trimLayout'ed; nullopt when there is
/// no `(` or nothing closes the argument. Nested parentheses are not followed
/// (`partial(f(x), 1)` gives `f(x`).
/// Why: a partial runs the function it wraps, and the call's facts keep its text only.
std::optional<std::string_view> firstCallArgument(std::string_view text);

} // namespace kbaudit::semantic::pyexpr
