#pragma once

// Shared reading of Python control flow for the MEM rules: which names are the entry point's
// inputs, what a branch's block is, what a function returns, and which comparisons key a
// cache on an input. Blocks and returns come from the Python facts (Branch::arms, returns).

#include "kbaudit/facts.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules::mem {

/// Top-level pieces of `text` split at `sep` (outside brackets and strings).
std::vector<std::string> splitTopLevel(std::string_view text, std::string_view sep);

/// Functions the entry points reach; every method of a model class when the inventory has none.
std::set<std::string> reachableFunctions(const Facts &f);

/// Parameters that carry the caller's data: all but the receiver (`self`/`cls`).
std::vector<std::string> inputParams(const py::Function &fn);

/// The input parameters of `fn` plus local names bound to them or to parts and views of them
/// (`st = state[3]`, `ckv = st["c_kv"]`, `x2 = x.view(-1)`); not results of computations.
std::set<std::string> inputNames(const py::PythonFacts &facts, const py::Function &fn);

/// Names rebound (assigned) inside `fn` before `line` (0: anywhere).
bool reboundBefore(const py::PythonFacts &facts, const py::Function &fn, std::string_view name, unsigned line = 0);

/// A statement of `fn` itself (not of a nested def): its lines and its text, continuation
/// lines joined.
struct Statement {
  LineRange lines;
  std::string text;
};
/// `return` statements of `fn` (the returned value's text, continuation lines joined).
std::vector<Statement> returns(const py::PythonFacts &facts, const py::Function &fn);
/// Returned elements: a returned tuple is split into its items.
std::vector<std::string> returnedItems(std::string_view returned);

/// The lines an if/elif test guards (its block), and the block of its `else`, if any.
struct BranchBlocks {
  LineRange body;     ///< the if-block (for a one-line `if c: stmt`, the test's own line)
  LineRange orelse;   ///< {0,0} when there is no else
  bool inlineBody = false;
};
/// From the branch's arms (if/elif); empty for branch kinds without arms.
BranchBlocks blocksOf(const py::Branch &b);

bool within(LineRange inner, LineRange outer);

/// A comparison of the condition (`a is b`, `a != b`, `k in cache`), negation folded in.
struct Comparison {
  std::string left, op, right;
  bool negated = false; ///< `is not`, `!=`, `not in`, or under a `not`
};
std::vector<Comparison> comparisons(std::string_view condition);

/// What a cache key reads of an input.
enum class KeyKind { Identity, Pointer, Version, Shape, Content };

/// Identity/pointer/version expressions of the inputs kept in locals (`k = x.data_ptr()`,
/// `v = x._version`, `key = (id(x), x.shape)`): local name -> strongest kind.
struct KeyLocal {
  std::string name;
  std::vector<KeyKind> kinds;
};
std::vector<KeyLocal> keyLocals(const py::PythonFacts &facts, const py::Function &fn, const std::set<std::string> &inputs);

/// `side` is an input itself, or a tuple holding one (`x`, `(x, w)`, `(data)`): what a dict or
/// set membership test looks up by the tensors' hashes, i.e. their identities.
bool isBareInputKey(std::string_view side, const std::set<std::string> &inputs);

/// The kinds an expression reads of the inputs (an identity test reads Identity, `.data_ptr()`
/// Pointer, `._version` Version, `.shape` Shape).
std::vector<KeyKind> keyKindsOf(std::string_view side, bool identityOperator, const std::set<std::string> &inputs,
                                const std::vector<KeyLocal> &locals,
                                const std::set<std::string> &identityFunctions = {"id"});

/// Names that call the builtin `id`: `id` itself and module-level aliases of it (`_ident = id`),
/// which the Python front end resolves.
std::set<std::string> identityFunctions(const py::PythonFacts &facts);

/// `side` names state that outlives the call: a self attribute or a module-level name.
bool isStoredState(std::string_view side, const py::PythonFacts &facts);

/// A call that does no work the timing is meant to measure (metadata, views, copies, allocation,
/// builtins): it cannot stand for recomputing a result.
bool isInertCall(const py::Call &c);

/// Calls in `fn` (and its nested defs) on `lines`.
std::vector<const py::Call *> callsOn(const py::PythonFacts &facts, std::string_view fn, LineRange lines);

} // namespace kbaudit::rules::mem
