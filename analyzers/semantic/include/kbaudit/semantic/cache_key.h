#pragma once

// What a cache key reads of a function's inputs, and what counts as state kept across calls:
// the questions behind "is this cache keyed on an input's identity or address" (MEM001) and
// "is this revalidation compared with stored state" (MEM004). Every answer comes from the
// names an expression reads and the root of its chain (py::Expr::names/root), never from its
// text.

#include "kbaudit/python/facts.h"

#include <set>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// What a cache key reads of an input.
enum class KeyKind { Identity, Pointer, Version, Shape };

/// A local of a function bound to an identity, address, version or shape of its inputs
/// (`k = x.data_ptr()`, `v = x._version`, `key = (id(x), x.shape)`), with what it reads.
struct KeyLocal {
  std::string name;
  std::vector<KeyKind> kinds;
};

/// Names that call the builtin `id` or make a weak reference (which hashes as its referent):
/// `id`, `weakref.ref` and their aliases (`_ident = id`, `from weakref import ref as r`).
std::set<std::string> identityFunctions(const py::PythonFacts &facts);

/// The kinds `side` reads of `inputs`: `.data_ptr`/`.untyped_storage` Pointer, `._version`
/// Version, an identity function or `hash(input)` Identity, `.shape`/`.size`/`.numel` Shape;
/// an identity operator (`is`) on an input with nothing else read is Identity. Locals of
/// `locals` that `side` reads add their kinds. `calls` are the calls made inside `side`: an
/// attribute read by `getattr(obj, "name")` with a folded name counts as `obj.name`.
std::vector<KeyKind> keyKindsOf(const py::Expr &side, bool identityOperator, const std::set<std::string> &inputs,
                                const std::vector<KeyLocal> &locals, const std::set<std::string> &identityFns,
                                const std::vector<const py::Call *> &calls = {});

/// The calls of `facts` made inside an assignment's value (same function, same lines).
std::vector<const py::Call *> callsIn(const py::PythonFacts &facts, const py::Assignment &a);

/// The locals of `fn` whose value reads a key kind of `inputs` (in assignment order, each
/// seeing the ones before).
std::vector<KeyLocal> keyLocals(const py::PythonFacts &facts, const py::Function &fn, const std::set<std::string> &inputs);

/// `side` is one of `inputs` itself, or a tuple holding one (`x`, `(x, w)`): what a dict or
/// set membership test looks up by the tensors' hashes, i.e. their identities.
bool isBareInputKey(const py::Expr &side, const std::set<std::string> &inputs);

/// `name` is a module-level name bound to None, a dict, a list or a call's result: state a
/// function can keep across calls (not a constant).
bool isModuleState(const py::PythonFacts &facts, std::string_view name);

/// `e` names state that outlives the call: it reads `self`, or its chain starts at a
/// module-level name bound to None, a dict, a list or a call's result.
bool isStoredState(const py::Expr &e, const py::PythonFacts &facts);

/// Every read of `input` in `e` goes through its metadata (`x.shape`, `x.size(...)`, `x.dtype`,
/// `x.device`, `x.numel`, `x.dim`, `x.ndim`, `x.stride`, `x.is_contiguous`), and there is at
/// least one such read or none at all: a launch plan sized by the input, not its data.
/// An expression that reads both `x` and `x.shape` is taken as metadata only (the names an
/// expression reads do not say whether `x` was also read on its own).
bool readsOnlyMetadata(const py::Expr &e, const std::string &input);

} // namespace kbaudit::semantic
