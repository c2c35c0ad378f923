#pragma once

// "Is this cache keyed on an input's identity, address or version?" asked of one branch: the
// comparisons of its condition that match an input's identity (`x is self._x`, `x in
// self._cache`, `id(x) == self._id`), data pointer or version counter against state kept
// across calls. A shape match alone (a compiled kernel's or a workspace's key) is not one.
// MEM001 then asks whether what the key guards is a stored result or data derived from the
// input; those answers are here too, so the rule holds only the verdict.

#include "kbaudit/semantic/cache_key.h"
#include "kbaudit/semantic/condition_parts.h"

#include <set>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// One comparison that keys a cache on an input.
struct CacheKey {
  ConditionComparison cmp;
  std::vector<KeyKind> kinds; ///< Identity, Pointer and/or Version (Shape dropped)
  bool stateRight = true;     ///< the stored operand (`self._last_x`, `self._cache`) is the right side
  const Operand &stateSide() const { return stateRight ? cmp.right : cmp.left; }
  bool has(KeyKind k) const;
};

/// The comparisons of branch `b`'s test (in `fn`) that key a cache on `inputs`. A test whose
/// names (py::Branch::names) read no input or local of `fn`, or no state kept across calls, is
/// answered without parsing its comparisons.
std::vector<CacheKey> cacheKeys(const py::PythonFacts &facts, const py::Function &fn, const py::Branch &b,
                                const std::set<std::string> &inputs);
/// The same, given `locals` = keyLocals(facts, fn, inputs).
/// Why: a rule asking of every branch of a function finds the function's key locals once.
std::vector<CacheKey> cacheKeys(const py::PythonFacts &facts, const py::Function &fn, const py::Branch &b,
                                const std::set<std::string> &inputs, const std::vector<KeyLocal> &locals);

/// Some name branch `b` reads starts at `self` or at module-level state (isModuleState): the
/// test can compare against state kept across calls.
bool testReadsState(const py::PythonFacts &facts, const py::Branch &b);

/// "object identity", "data_ptr()", "_version", joined by "and", for the kinds of `keys`.
std::string describeKeys(const std::vector<CacheKey> &keys);

/// The attribute of `self` (or the module-level name) a stored operand keeps its key in:
/// `self._x` out of `self._x`, `self._x.data_ptr()`, `getattr(self, "_x", None)`.
std::string stateAttribute(const Operand &side);

/// The key's stored side is assigned from an input (`self._last_x = x`, `= id(x)`,
/// `= x.data_ptr()`), not from the solution's own buffers; a membership key always is.
bool keyStoredFromInput(const py::PythonFacts &facts, const CacheKey &k);

/// `e` reads `inputs` only through their metadata (shape, sizes, dtype, device), directly or
/// through locals of `fn` bound to such values, or is a lookup in stored state keyed by the
/// input (`self._plans[x]`): a launch plan, not data of the input.
bool readsOnlyInputMetadata(const py::PythonFacts &facts, const py::Function &fn, const py::Expr &e,
                            const std::set<std::string> &inputs);

/// The attribute of `self` that the miss block `miss` of `fn` refills with data derived from
/// the input, for keys one of which was stored from an input (keyStoredFromInput): a `self.<a>`
/// assigned there that is not a key's own attribute and does not read the input only through
/// its metadata, unless a call in the block is handed it (a buffer sized from the shape, then
/// filled by a kernel). "" when there is none.
std::string derivedRefill(const py::PythonFacts &facts, const py::Function &fn, LineRange miss,
                          const std::vector<CacheKey> &keys);

} // namespace kbaudit::semantic
