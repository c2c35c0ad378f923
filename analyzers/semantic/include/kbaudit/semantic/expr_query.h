#pragma once

// Questions about one summarised Python expression, answered from its syntax tree (the names it
// reads, the root of its chain) rather than from its text. Rules ask these; a rule that searched
// `Expr::text` for an identifier would also find it in a string literal, a comment, a keyword
// argument's name, an attribute name or a lambda's own parameter, and would miss nothing a
// rewrite of the spacing could hide.

#include "kbaudit/python/facts.h"

#include <string>
#include <optional>
#include <string_view>

namespace kbaudit::semantic {

/// The expression reads `name` (a plain name, or a dotted chain rooted in one: "self.cache").
/// Past the name walk's budget the answer falls back to a whole-identifier search of the text,
/// which errs towards "reads".
bool reads(const py::Expr &e, std::string_view name);

/// The expression reads any of `names`.
template <typename Names> bool readsAny(const py::Expr &e, const Names &names) {
  for (const auto &n : names)
    if (reads(e, n))
      return true;
  return false;
}

/// The leftmost name of the expression's attribute/subscript/call chain ("x" of `x[0].view(-1)`),
/// empty when it starts at something else.
std::string_view rootName(const py::Expr &e);

/// The expression is exactly the name `name` (after parentheses): `x`, not `x.t()` or `(x + 0)`.
bool isName(const py::Expr &e, std::string_view name);

/// The expression is exactly the dotted path `dotted` (`self.conv`: a name and attribute links
/// only, no call or subscript), not `self.conv.weight` or `self.conv(x)`.
bool isPath(const py::Expr &e, std::string_view dotted);

/// A `True`/`False` literal's value; nullopt for anything else.
std::optional<bool> boolLiteral(const py::Expr &e);

/// The expression as a finding quotes it: one line, runs of white space collapsed to a space, at
/// most `max` bytes (cut at a UTF-8 boundary, "..." appended). For messages only: no decision
/// may rest on it.
std::string quote(const py::Expr &e, std::size_t max = 120);

} // namespace kbaudit::semantic
