#include "kbaudit/semantic/identity_cache.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/input_aliases.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {

namespace {

std::vector<const py::Call *> callsOf(const Operand &o) {
  std::vector<const py::Call *> out;
  for (const py::Call &c : o.calls)
    out.push_back(&c);
  return out;
}

bool metadataOnly(const py::PythonFacts &facts, const py::Function &fn, const py::Expr &e,
                  const std::set<std::string> &inputs, int depth) {
  // `self._plans[x]`: a lookup in stored state keyed by the input hands back what was stored,
  // which is checked where it is stored.
  const bool storedLookup = e.kind == py::ExprKind::Subscript && isStoredState(e, facts);
  for (const std::string &n : inputs)
    if (!storedLookup && !readsOnlyMetadata(e, n))
      return false;
  if (depth >= 3)
    return true;
  for (const py::Assignment &a : facts.assignments)
    if (a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Name && !inputs.count(a.target) &&
        reads(e, a.target) && !metadataOnly(facts, fn, a.value, inputs, depth + 1))
      return false;
  return true;
}

/// The attribute of `self` an assignment writes (`self._cache` of `self._cache[k] = v`).
std::string targetAttribute(const py::Assignment &a) {
  if ((a.kind != py::Assignment::TargetKind::SelfAttribute && a.kind != py::Assignment::TargetKind::Subscript &&
       a.kind != py::Assignment::TargetKind::Attribute) ||
      !pytext::startsWith(a.target, "self."))
    return {};
  std::size_t end = 5;
  while (end < a.target.size() && pytext::isIdentChar(a.target[end]))
    ++end;
  return a.target.substr(0, end);
}

/// A call of `fn` (or a def nested in it) on `lines` is handed something reading `name`.
bool handedTo(const py::PythonFacts &facts, const py::Function &fn, LineRange lines, const std::string &name) {
  for (const py::Call &c : facts.calls)
    if ((c.function == fn.qualname || pytext::startsWith(c.function, fn.qualname + ".")) && lines.contains(c.lines.begin))
      for (const py::Argument &arg : c.args)
        if (reads(arg.value, name))
          return true;
  return false;
}

} // namespace

bool CacheKey::has(KeyKind k) const { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); }

bool testReadsState(const py::PythonFacts &facts, const py::Branch &b) {
  return std::any_of(b.names.begin(), b.names.end(), [&](const std::string &n) {
    const std::string head = n.substr(0, n.find('.'));
    return head == "self" || isModuleState(facts, head);
  });
}

std::vector<CacheKey> cacheKeys(const py::PythonFacts &facts, const py::Function &fn, const py::Branch &b,
                                const std::set<std::string> &inputs) {
  if (!testReadsState(facts, b))
    return {};
  return cacheKeys(facts, fn, b, inputs, keyLocals(facts, fn, inputs));
}

std::vector<CacheKey> cacheKeys(const py::PythonFacts &facts, const py::Function &fn, const py::Branch &b,
                                const std::set<std::string> &inputs, const std::vector<KeyLocal> &locals) {
  if (!testReadsState(facts, b))
    return {};
  const std::set<std::string> idFns = identityFunctions(facts);
  // Only a tensor the caller passed is found by identity; a local built from its shape or
  // device (a workspace key) hashes by value.
  std::set<std::string> parameterInputs;
  for (const std::string &p : fn.params)
    if (inputs.count(p) && p != "self")
      parameterInputs.insert(p);
  std::vector<CacheKey> keys;
  for (ConditionComparison &c : conditionComparisons(b)) {
    const py::Expr &left = c.left.value, &right = c.right.value;
    if (left.kind == py::ExprKind::None || right.kind == py::ExprKind::None)
      continue;
    std::vector<KeyKind> l = keyKindsOf(left, c.identityOperator(), inputs, locals, idFns, callsOf(c.left));
    std::vector<KeyKind> r = keyKindsOf(right, c.identityOperator(), inputs, locals, idFns, callsOf(c.right));
    // `x in self.cache`: a dict or set (weak-keyed or not) finds a tensor by its hash, which is
    // its identity; so does a tuple of tensors.
    if (c.membership() && l.empty() && isBareInputKey(left, parameterInputs))
      l.push_back(KeyKind::Identity);
    const bool stateRight = !l.empty() && r.empty() && isStoredState(right, facts);
    const bool stateLeft = !c.membership() && !r.empty() && l.empty() && isStoredState(left, facts);
    if (!stateRight && !stateLeft)
      continue;
    CacheKey k{std::move(c), stateRight ? std::move(l) : std::move(r), stateRight};
    // A shape match alone is how compiled kernels and workspaces are keyed.
    k.kinds.erase(std::remove(k.kinds.begin(), k.kinds.end(), KeyKind::Shape), k.kinds.end());
    if (!k.kinds.empty())
      keys.push_back(std::move(k));
  }
  return keys;
}

std::string describeKeys(const std::vector<CacheKey> &keys) {
  const auto any = [&](KeyKind kind) {
    return std::any_of(keys.begin(), keys.end(), [&](const CacheKey &k) { return k.has(kind); });
  };
  std::string out;
  const auto add = [&](bool on, const char *w) {
    if (on)
      out += (out.empty() ? "" : " and ") + std::string(w);
  };
  add(any(KeyKind::Identity), "object identity");
  add(any(KeyKind::Pointer), "data_ptr()");
  add(any(KeyKind::Version), "_version");
  return out;
}

std::string stateAttribute(const Operand &side) {
  for (const std::string &n : side.value.names) // the first chain one attribute off `self`
    if (pytext::startsWith(n, "self.") && n.find('.', 5) == std::string::npos)
      return n;
  for (const py::Call &c : side.calls)
    if (c.resolved == "getattr")
      if (const py::Argument *obj = c.positionalArg(0); obj && isName(obj->value, "self"))
        if (const py::Argument *name = c.positionalArg(1); name && name->value.string)
          return "self." + name->value.string->value;
  return std::string(rootName(side.value));
}

bool keyStoredFromInput(const py::PythonFacts &facts, const CacheKey &k) {
  if (k.cmp.membership())
    return true; // the dict is keyed by the input-derived expression itself
  const std::string attr = stateAttribute(k.stateSide());
  if (attr.empty())
    return false;
  for (const py::Assignment &a : facts.assignments) {
    if (a.target != attr)
      continue;
    const py::Function *owner = facts.findFunction(a.function);
    if (!owner)
      continue;
    // The input object itself, its address or its id(), not something sized by it.
    const std::set<std::string> inputs = inputAliases(facts, *owner);
    if (inputs.count(std::string(rootName(a.value))))
      return true;
    for (const py::Call &c : facts.calls) // `id(x)`
      if (c.function == a.function && c.resolved == "id" && a.lines.contains(c.lines.begin))
        if (const py::Argument *arg = c.positionalArg(0); arg && inputs.count(std::string(rootName(arg->value))))
          return true;
  }
  return false;
}

std::string derivedRefill(const py::PythonFacts &facts, const py::Function &fn, LineRange miss,
                          const std::vector<CacheKey> &keys) {
  if (!std::any_of(keys.begin(), keys.end(), [&](const CacheKey &k) { return keyStoredFromInput(facts, k); }))
    return {};
  std::set<std::string> keyAttrs;
  for (const CacheKey &k : keys)
    if (!k.cmp.membership())
      keyAttrs.insert(stateAttribute(k.stateSide()));
  std::set<std::string> inputs = inputAliases(facts, fn);
  inputs.erase("self"); // a method's body moved into a helper still takes the module first
  for (const py::Assignment &a : facts.assignments) {
    const std::string attr = targetAttribute(a);
    if (a.function != fn.qualname || !miss.contains(a.lines.begin) || attr.empty())
      continue;
    // A launch plan sized by the input holds nothing of its data, unless a call in the miss
    // fills it (a buffer allocated from the shape, then written by a kernel from the input).
    if (readsOnlyInputMetadata(facts, fn, a.value, inputs) && !handedTo(facts, fn, miss, attr))
      continue;
    if (!keyAttrs.count(attr))
      return attr;
  }
  return {};
}

bool readsOnlyInputMetadata(const py::PythonFacts &facts, const py::Function &fn, const py::Expr &e,
                            const std::set<std::string> &inputs) {
  return metadataOnly(facts, fn, e, inputs, 0);
}

} // namespace kbaudit::semantic
