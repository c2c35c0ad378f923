#pragma once

// Questions about what one summarised expression names, for the rules that follow values
// through names (RUB006's sampled statistics, RUB007's replayed inputs, RUB010's frames, RUB011's
// addresses, the channel writes of RUB012). Each is answered from the expression's syntax-tree
// facts (`names`, `root`, `kind`); where the model keeps no structure for the question (a
// subscript's slice, the methods of a chain past its first call) the answer says so and reads the
// written form here, once, instead of in every rule.

#include "kbaudit/python/facts.h"

#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// The dotted name the expression is, as written (`x`, `self.saved`, `os.environ`), from its
/// names; "" for anything else (`f().x`, `a[0]`, a call, a literal).
std::string_view dottedName(const py::Expr &e);

/// The expression reads a name or attribute chain whose last segment is `segment`
/// (`PROT_WRITE` or `mmap.PROT_WRITE` for "PROT_WRITE"); never for a string literal spelling it.
bool readsSegment(const py::Expr &e, std::string_view segment);

/// The expression reads an attribute of the name `root` (`self.n` for "self"), from its names.
bool readsAttributeOf(const py::Expr &e, std::string_view root);

/// The expression is arithmetic on `name` and constants only (`n + 1`, `self.calls * 2`): it
/// reads `name` and no other name but the prefixes of its chain.
/// Why: a counter steps from its own value; `self.ema * 0.9 + x` is state that follows the input.
bool stepsFrom(const py::Expr &e, std::string_view name);

/// The name a store through the expression lands in: the root of its chain, or `self.attr` when
/// the chain starts at `self` (`self.cache` of `self.cache["k"].data`); "" when the chain starts
/// at a call or a literal, or is not a chain.
std::string storageRoot(const py::Expr &e);

/// The same question of a chain the facts keep only as written (`Call::receiver`,
/// `Assignment::target`): `x` of `x.f_back[0]`, `self.cache` of `self.cache["k"].data`, "" when
/// it starts with a call or a literal.
std::string storageRoot(std::string_view written);

/// The expression is `param` itself or a view of it: `param` followed only by subscripts and
/// view-like methods or attributes, each called at most once (`x[0]`, `x.view(-1).t()`, `x.T`;
/// the methods view, reshape, view_as, flatten, unflatten, squeeze, unsqueeze, transpose,
/// permute, t, expand, expand_as, narrow, select, contiguous, detach, as_strided, movedim,
/// swapaxes, T, mT, H, mH, data, diagonal), read from the expression's chain (py::Expr::chain).
/// Why: a view shares the input's storage and values as much as the input itself does.
bool isViewOf(const py::Expr &e, std::string_view param);

/// The root name of a chain that takes a constant window of elements with a slice subscript
/// (`x` of `x.flatten()[:8192].abs()`, of `x[::97]`, of `x[0:256, :]`): every part of some slice
/// item is empty or an integer literal and one is non-zero. "" when there is none or the chain
/// has no root name. The model keeps no slice structure, so the subscript is read from the
/// written form.
/// Why: such a window is a fixed-size sample of the values whatever the input's size.
std::string constantWindowRoot(const py::Expr &e);

/// The same question of a chain kept only as written (`Call::callee`: `x[:256].abs().max`).
std::string constantWindowRoot(std::string_view written);

/// A dict literal that builds tensors (`torch.tensor(...)`, `torch.as_tensor(...)` read as names,
/// not spelled in a string) under keys that are tuples of two or more integers
/// (`{(1024, 4096): torch.tensor([...])}`); the keys are read from the written form
/// (pyexpr::shapeKeyedLiteralTable), as the model keeps no dict items.
/// Why: results stored per problem shape answer the grader without computing.
bool shapeKeyedTensorTable(const py::Expr &e);

/// The static words of a command argument (`os.system("rm " + p)`, `subprocess.run(["sed", "-i",
/// ...])`): its folded string, or its items' folded strings joined by single spaces, with the
/// parts that do not fold left out; "" when nothing folds.
/// Why: what a shell command does is in its string values, never in the names around them.
std::string commandWords(const py::Expr &e);

} // namespace kbaudit::semantic
