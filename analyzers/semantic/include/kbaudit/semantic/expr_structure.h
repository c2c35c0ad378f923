#pragma once

// Structural questions about one summarised Python expression that several rules ask (the
// timing, precision and forbidden-operation rules): what a value ends in, which name's data it
// is, which call fact a call expression is. Answered from the expression's names, root, kind
// and resolved name (kbaudit/semantic/expr_query.h), never by searching its text, so a name in
// a string literal, a comment or a keyword argument's name does not count.

#include "kbaudit/python/facts.h"

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// Some name or dotted chain the expression reads ends in the segment `member`: a bare
/// `current_stream()` or `torch.cuda.current_stream()` for "current_stream", `x.data_ptr()`
/// for "data_ptr". Past the name walk's budget it falls back to reads() on the bare segment.
/// Why: a value that calls or reads a method of that name, whatever it is called on.
bool readsMember(const py::Expr &e, std::string_view member);

/// Some dotted chain the expression reads ends in `.attr`: `x.shape[0]`, `t.size(1)`,
/// `x.data_ptr()`; a bare name `attr` does not count. Past the name walk's budget it falls back
/// to reads() on the bare attribute name.
/// Why: an attribute or method of a value, not a local variable that happens to share its name.
bool readsAttribute(const py::Expr &e, std::string_view attr);

/// The value reads a size property of something: `.shape`, `.size()`, `.numel()`, `.dim()`,
/// `.ndim` or `len(...)` (`M, K = x.shape`, `n = len(xs)`).
/// Why: a branch on such a value dispatches on the problem's shape, not on its data (WRAP007;
/// RUB005 asks the same of a branch condition's spelling).
bool readsShape(const py::Expr &e);

/// The name whose data the expression is: `x`, `self.weight`, `x.contiguous()`, `w.t()`,
/// `self.lin.weight.data`, `x.view(-1).float()` give their root ("x", "self", "w"); a subscript,
/// a computed value (`(idx < n)`, `torch.arange(n)`, `x + 1`) or a call that is not a view-like
/// method (contiguous, t, detach, clone, view, reshape, flatten, transpose, permute, cuda,
/// float, squeeze) gives "".
/// Why: a kernel launched on such a value runs on that input or weight, not on a value the
/// function computed.
std::string sameDataRoot(const py::Expr &e);

/// The expression is an attribute `<owner>.<attr>` of a plain name chain: the owner as a
/// dotted name ("s" for `s.cuda_stream`, "self.side" for `self.side.cuda_stream`).
std::optional<std::string> attributeOwner(const py::Expr &e, std::string_view attr);

/// The call fact of a Call expression: the call in `function` on the expression's lines with
/// the same resolved callee (the first such when a line holds two). Null for any other kind.
/// Why: an expression summary does not carry its arguments; the call fact does.
const py::Call *callOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function);

/// `value` holds the call `call` (a call fact): it reads the callee when that is a plain dotted
/// chain (`q.half` in `torch.mm(q.half(), k)`); for a callee through a call or subscript
/// (`q.view(B, T).half`) it starts at the same root, reads the plain part before the first call
/// (`q.view`) and spans the call's lines.
/// Why: a call fact names its callee as written, and a value computed from the call's result
/// is asked for by that call, not by a name.
bool holdsCall(const py::Expr &value, const py::Call &call);

/// The expression is a list, set or dict comprehension or a generator expression: a
/// comprehension clause of the same function spans exactly its lines.
bool isComprehension(const py::PythonFacts &py, const py::Expr &e, std::string_view function);

/// The `@` operation's operands read `name` as a whole identifier that is not an attribute of
/// something else. The operator fact carries only its spelling (no operand trees), so this
/// reads it; rules ask this instead of searching it themselves.
bool operandsRead(const py::OperatorUse &op, std::string_view name);

} // namespace kbaudit::semantic
