#include "kbaudit/semantic/cache_key.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {

namespace {

/// The attribute right after `input` in each chain `e` reads from it ("shape" of "x.shape").
std::vector<std::string_view> attributesOf(const py::Expr &e, std::string_view input) {
  std::vector<std::string_view> out;
  for (const std::string &n : e.names)
    if (n.size() > input.size() && n[input.size()] == '.' && pytext::startsWith(n, input)) {
      std::string_view rest = std::string_view(n).substr(input.size() + 1);
      out.push_back(rest.substr(0, rest.find('.')));
    }
  return out;
}

/// Some chain of `e` ends in one of `attrs` (`x.data_ptr`, `self._x._version`), or one of
/// `calls` is `getattr(obj, "attr")` of one.
template <std::size_t N>
bool chainEndsIn(const py::Expr &e, const std::vector<const py::Call *> &calls, const std::string_view (&attrs)[N]) {
  for (const py::Call *c : calls)
    if (c->resolved == "getattr")
      if (const py::Argument *name = c->positionalArg(1); name && name->value.string &&
          std::find(std::begin(attrs), std::end(attrs), name->value.string->value) != std::end(attrs))
        return true;
  for (const std::string &n : e.names) {
    const std::size_t dot = n.rfind('.');
    if (dot == std::string::npos)
      continue;
    const std::string_view last = std::string_view(n).substr(dot + 1);
    if (std::find(std::begin(attrs), std::end(attrs), last) != std::end(attrs))
      return true;
  }
  return false;
}

} // namespace

std::set<std::string> identityFunctions(const py::PythonFacts &facts) {
  std::set<std::string> out = {"id", "weakref.ref"};
  for (const py::Import &i : facts.imports) {
    if (i.target == "weakref.ref")
      out.insert(i.boundName);
    else if (i.target == "weakref")
      out.insert(i.boundName + ".ref");
  }
  for (const py::Assignment &a : facts.assignments)
    if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && a.value.kind == py::ExprKind::Name &&
        a.value.resolved == "id")
      out.insert(a.target);
  return out;
}

std::vector<KeyKind> keyKindsOf(const py::Expr &side, bool identityOperator, const std::set<std::string> &inputs,
                                const std::vector<KeyLocal> &locals, const std::set<std::string> &identityFns,
                                const std::vector<const py::Call *> &calls) {
  std::vector<KeyKind> kinds;
  const auto add = [&](KeyKind k) {
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end())
      kinds.push_back(k);
  };
  if (readsAny(side, inputs)) {
    static constexpr std::string_view kPointer[] = {"data_ptr", "untyped_storage"};
    static constexpr std::string_view kVersion[] = {"_version"};
    static constexpr std::string_view kShape[] = {"shape", "size", "numel"};
    if (chainEndsIn(side, calls, kPointer))
      add(KeyKind::Pointer);
    if (chainEndsIn(side, calls, kVersion))
      add(KeyKind::Version);
    if (readsAny(side, identityFns))
      add(KeyKind::Identity);
    // A tensor hashes by identity: `hash(x)` of an input is its id (not `hash(x.shape)`).
    for (const py::Call *c : calls)
      if (c->callee == "hash")
        if (const py::Argument *arg = c->positionalArg(0); arg && isBareInputKey(arg->value, inputs))
          add(KeyKind::Identity);
    if (reads(side, "hash")) // calls not known: an input read only as itself
      for (const std::string &n : inputs)
        if (reads(side, n) && attributesOf(side, n).empty())
          add(KeyKind::Identity);
    if (chainEndsIn(side, calls, kShape))
      add(KeyKind::Shape);
    if (identityOperator && kinds.empty())
      add(KeyKind::Identity);
  }
  for (const KeyLocal &l : locals)
    if (reads(side, l.name))
      for (KeyKind k : l.kinds)
        add(k);
  return kinds;
}

namespace {
/// The call is made inside the assignment's value (both in one function, by lines).
bool inValue(const py::Assignment &a, const py::Call &c) {
  return c.function == a.function && a.value.lines.contains(c.lines.begin) && a.value.lines.contains(c.lines.end);
}
} // namespace

std::vector<KeyLocal> keyLocals(const py::PythonFacts &facts, const py::Function &fn,
                                const std::set<std::string> &inputs) {
  std::vector<KeyLocal> out;
  const std::set<std::string> idFns = identityFunctions(facts);
  // callsIn(facts, a) for each assignment of `fn`, from the calls of `fn` found once.
  std::vector<const py::Call *> fnCalls;
  for (const py::Call &c : facts.calls)
    if (c.function == fn.qualname)
      fnCalls.push_back(&c);
  std::vector<const py::Call *> calls;
  for (const py::Assignment &a : facts.assignments) {
    if (a.function != fn.qualname || a.kind != py::Assignment::TargetKind::Name || inputs.count(a.target))
      continue;
    calls.clear();
    for (const py::Call *c : fnCalls)
      if (inValue(a, *c))
        calls.push_back(c);
    std::vector<KeyKind> kinds = keyKindsOf(a.value, false, inputs, out, idFns, calls);
    if (!kinds.empty())
      out.push_back(KeyLocal{a.target, std::move(kinds)});
  }
  return out;
}

std::vector<const py::Call *> callsIn(const py::PythonFacts &facts, const py::Assignment &a) {
  std::vector<const py::Call *> out;
  for (const py::Call &c : facts.calls)
    if (inValue(a, c))
      out.push_back(&c);
  return out;
}

bool isBareInputKey(const py::Expr &side, const std::set<std::string> &inputs) {
  const auto bare = [&](const py::Expr &e) {
    return std::any_of(inputs.begin(), inputs.end(), [&](const std::string &n) { return isName(e, n); });
  };
  if (bare(side))
    return true;
  if (side.kind == py::ExprKind::Tuple)
    return std::any_of(side.elements.begin(), side.elements.end(), bare);
  return false;
}

bool isStoredState(const py::Expr &e, const py::PythonFacts &facts) {
  return reads(e, "self") || isModuleState(facts, rootName(e));
}

bool isModuleState(const py::PythonFacts &facts, std::string_view head) {
  if (head.empty())
    return false;
  for (const py::Assignment &a : facts.assignments)
    if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && a.target == head &&
        (a.value.kind == py::ExprKind::None || a.value.kind == py::ExprKind::Dict ||
         a.value.kind == py::ExprKind::List || a.value.kind == py::ExprKind::Call))
      return true;
  return false;
}

bool readsOnlyMetadata(const py::Expr &e, const std::string &input) {
  if (!reads(e, input))
    return true;
  static constexpr std::string_view kMeta[] = {"shape", "size",   "dtype",  "device",       "numel",
                                               "dim",   "ndim",   "stride", "is_contiguous"};
  const std::vector<std::string_view> attrs = attributesOf(e, input);
  return !attrs.empty() && std::all_of(attrs.begin(), attrs.end(), [](std::string_view a) {
    return std::find(std::begin(kMeta), std::end(kMeta), a) != std::end(kMeta);
  });
}

} // namespace kbaudit::semantic
