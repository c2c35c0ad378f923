// Trivial delegation: `def forward(self, x): return _impl(self, x)` computes exactly what
// `_impl` computes. Moving a body into a helper is a rewrite that changes nothing a rule asks
// about, so the delegating def's facts are read from the helper's body (under the delegating
// def's name, with its `self`), the way an inliner would see it.
//
// The scope builder finds them (findDelegations) so the helper also reads as a method body
// (`self` accesses, call counters). Only the plainest form is followed, where the inline is exact: the body is one `return` of a
// call to a module-level, undecorated def of this file, bound once, that takes the same
// parameters, passed on by name in the same order; the helper holds no nested defs or classes
// (their facts would be duplicated under two names). Anything else keeps the def's own body.

#include "extractor.h"

namespace kbaudit::py {

namespace {

using K = ts::K;

/// The statements of a block, without comments and a leading docstring.
std::vector<TSNode> statements(TSNode block) {
  std::vector<TSNode> out;
  for (TSNode s : ts::namedChildren(block))
    if (ts::kind(s) != K::Comment)
      out.push_back(s);
  if (!out.empty() && ts::kind(out.front()) == K::ExpressionStatement) {
    ts::Children kids = ts::namedChildren(out.front());
    if (kids.size() == 1 && (ts::kind(kids[0]) == K::String || ts::kind(kids[0]) == K::ConcatenatedString))
      out.erase(out.begin());
  }
  return out;
}

std::vector<std::string> parameterNames(TSNode def, llvm::StringRef src) {
  std::vector<std::string> out;
  for (TSNode p : ts::namedChildren(ts::field(def, ts::F::Parameters))) {
    if (ts::kind(p) == K::Comment)
      continue;
    std::string name = parameterName(p, src);
    if (name.empty())
      return {}; // a `*` or `/` marker: keyword-only or positional-only calling rules
    out.push_back(std::move(name));
  }
  return out;
}

/// The names a call passes, in order ("x", "*args", "**kw"); empty if anything else is passed.
std::vector<std::string> passedNames(TSNode call, llvm::StringRef src, bool &ok) {
  std::vector<std::string> out;
  ok = true;
  for (TSNode a : ts::namedChildren(ts::field(call, ts::F::Arguments))) {
    const K k = ts::kind(a);
    if (k == K::Comment)
      continue;
    if (k == K::Identifier) {
      out.push_back(ts::text(a, src).str());
      continue;
    }
    if (k == K::ListSplat || k == K::DictionarySplat) {
      ts::Children kids = ts::namedChildren(a);
      if (kids.size() == 1 && ts::kind(kids[0]) == K::Identifier) {
        out.push_back((k == K::ListSplat ? "*" : "**") + ts::text(kids[0], src).str());
        continue;
      }
    }
    ok = false;
    return {};
  }
  return out;
}

bool holdsDefinitions(TSNode block) {
  for (TSNode s : ts::namedChildren(block)) {
    const K k = ts::kind(s);
    if (k == K::FunctionDefinition || k == K::ClassDefinition || k == K::DecoratedDefinition)
      return true;
  }
  return false;
}

} // namespace

namespace {

/// The module-level helper `def` only delegates to, or a null node.
TSNode delegateOf(const ScopeTable &table, TSNode def, llvm::StringRef src) {
  const std::vector<TSNode> body = statements(ts::field(def, ts::F::Body));
  if (body.size() != 1 || ts::kind(body[0]) != K::ReturnStatement)
    return TSNode{};
  ts::Children value = ts::namedChildren(body[0]);
  if (value.size() != 1 || ts::kind(value[0]) != K::Call)
    return TSNode{};
  const TSNode callee = ts::field(value[0], ts::F::Function);
  if (ts::kind(callee) != K::Identifier)
    return TSNode{};
  bool ok = false;
  const std::vector<std::string> passed = passedNames(value[0], src, ok);
  const std::vector<std::string> params = parameterNames(def, src);
  if (!ok || params.empty() || passed != params)
    return TSNode{};
  // The helper: a def directly in the module, bound once there (no later rebinding of its name).
  const llvm::StringRef name = ts::text(callee, src);
  const auto bindings = table.scopes[0].bindings.find(name);
  if (bindings == table.scopes[0].bindings.end() || bindings->second.size() != 1)
    return TSNode{};
  for (const Scope &s : table.scopes) {
    if (s.kind != Scope::Kind::Function || s.parent != 0 || s.name != name)
      continue;
    const TSNode helper = s.node;
    if (ts::isNull(helper) || ts_node_eq(helper, def) || ts::kind(helper) != K::FunctionDefinition)
      return TSNode{};
    for (const DecoratedDef &d : table.decoratedDefs)
      if (ts_node_eq(d.def, helper))
        return TSNode{}; // a decorator may change what calling it does (a cache, a compile)
    if (parameterNames(helper, src) != params || holdsDefinitions(ts::field(helper, ts::F::Body)))
      return TSNode{};
    return helper;
  }
  return TSNode{};
}

} // namespace

void findDelegations(ScopeTable &table, llvm::StringRef src) {
  if (table.scopes.empty())
    return;
  for (std::size_t m = 0; m < table.scopes.size(); ++m) {
    const Scope &method = table.scopes[m];
    if (method.kind != Scope::Kind::Function || ts::isNull(method.node))
      continue;
    const TSNode helper = delegateOf(table, method.node, src);
    if (ts::isNull(helper))
      continue;
    table.delegateOf.emplace(ts::key(method.node), helper);
    // The helper is the method's body moved out: its first parameter is the method's `self`,
    // and what it increments on it is a counter of the method's class.
    const int h = table.scopeFor(helper, -1);
    if (h < 0 || method.classScope < 0 || method.selfName.empty())
      continue;
    Scope &hs = table.scopes[static_cast<std::size_t>(h)];
    if (hs.classScope >= 0)
      continue; // already a method body for another class
    hs.selfName = method.selfName;
    hs.classScope = method.classScope;
    if (auto inc = table.firstParamIncrements.find(h); inc != table.firstParamIncrements.end())
      for (const auto &attr : inc->second)
        table.classIncrements[method.classScope].insert(attr.getKey());
  }
}

TSNode Extractor::delegate(TSNode def) const {
  auto it = table_.delegateOf.find(ts::key(def));
  return it == table_.delegateOf.end() ? TSNode{} : it->second;
}

TSNode Extractor::inlinedBody(TSNode def) const {
  TSNode source = def;
  // A short chain (forward -> _impl -> _impl2) is followed; a cycle or a long chain is not.
  for (int hop = 0; hop < 4; ++hop) {
    const TSNode next = delegate(source);
    if (ts::isNull(next) || ts_node_eq(next, def))
      break;
    source = next;
  }
  return source;
}

} // namespace kbaudit::py
