#pragma once

// Python code as a token sequence, for WRAP004's comparison of a solution's forward with the
// reference's: a small lexer (identifiers, numbers, strings, operators; no comments, no
// layout), the tokens of a def's body, and local names masked so that renaming them does not
// hide a copy. The text comes from solution.py (Facts) or the reference (ReferenceSummary).

#include "kbaudit/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic::pytokens {

using Tokens = std::vector<std::string>;

/// `text` as tokens: identifiers, numbers (`1.5e3`, `.5`), string literals whole without a
/// prefix of at most two identifier characters (`rb"x"` gives `"x"`; triple-quoted ones across
/// lines; an unterminated one ends at the newline or the text's end), `...` and the two- and three-character
/// operators, every other character alone. Comments, white space and backslashes are dropped,
/// and so is `self` followed by `.` (with the dot).
/// Why: a method and a free function computing the same thing, laid out differently, compare equal.
Tokens tokenize(std::string_view text);

/// The tokens of a def's body: after the first top-level `:` following the first `def`
/// token, without a leading string (the docstring); empty without a `def` or without that `:`.
/// Why: decorators and signatures are the harness's contract, the same in every solution.
Tokens bodyTokens(std::string_view defText);

/// `tokens` with every identifier that is not a keyword (Python's, plus a few builtins such as
/// `range`, `len`, `sum`), not a name bound by one of `facts`' imports, not an attribute
/// (after `.`) and not a keyword argument's name (before `=` after `(` or `,`) made "ID".
/// Why: local names are the copier's to rename; what a rename cannot change stays.
Tokens maskLocals(Tokens tokens, const py::PythonFacts &facts);

/// bodyTokens of each of `fns` in order (their lines of `text`, 1-indexed and inclusive; nothing
/// for invalid lines or a first line past the end, a last line past the end reads to the end),
/// concatenated and maskLocals'ed with `facts`.
/// Why: the comparison is over what the functions compute, not how they are named.
Tokens functionTokens(std::string_view text, const py::PythonFacts &facts, const std::vector<const py::Function *> &fns);

/// functionTokens over solution.py and its Python facts.
/// Why: the solution's side of the comparison.
Tokens functionTokens(const Facts &f, const std::vector<const py::Function *> &fns);

/// Share of `a`'s token 4-grams (the whole of `a` as one gram when shorter) that `b` also
/// contains: 1.0 when `b` holds all of `a`'s code, whatever `b` adds around it; 0 for an empty `a`.
/// Why: a solution that carries the reference's code contains its n-grams, renamed
/// whitespace and comments aside (the tokens are normalised).
double containment(const Tokens &a, const Tokens &b);

} // namespace kbaudit::semantic::pytokens
