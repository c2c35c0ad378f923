#include "computed_target.h"

#include <llvm/ADT/StringRef.h>

namespace kbaudit::py {

using ts::K;

namespace {

constexpr unsigned kMaxObjectDepth = 16;
constexpr size_t kMaxCandidates = 256;
constexpr llvm::StringLiteral kDynamic = "<dynamic>";

/// Positional arguments of a call node (keyword arguments and splats left out).
ts::Children positionalArgs(TSNode call) {
  ts::Children out;
  TSNode args = ts::field(call, ts::F::Arguments);
  if (ts::kind(args) != K::ArgumentList)
    return out;
  for (TSNode a : ts::namedChildren(args)) {
    const K k = ts::kind(a);
    if (k != K::KeywordArgument && k != K::ListSplat && k != K::DictionarySplat)
      out.push_back(a);
  }
  return out;
}

bool sameNode(TSNode a, TSNode b) { return ts::key(a) == ts::key(b); }

/// Which part of a loop target binds `name`: -1 the whole item, j >= 0 the j-th element of a
/// tuple target (one level), nullopt when the target does not bind it.
std::optional<int> targetColumn(TSNode target, llvm::StringRef name, llvm::StringRef src) {
  target = ts::unparen(target);
  if (ts::kind(target) == K::Identifier)
    return ts::text(target, src) == name ? std::optional<int>(-1) : std::nullopt;
  const K k = ts::kind(target);
  if (k != K::PatternList && k != K::TuplePattern && k != K::ListPattern && k != K::ExpressionList &&
      k != K::Tuple && k != K::List)
    return std::nullopt;
  int j = 0;
  for (TSNode c : ts::namedChildren(target)) {
    c = ts::unparen(c);
    if (ts::kind(c) == K::Identifier && ts::text(c, src) == name)
      return j;
    ++j;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> ComputedTargets::staticString(TSNode n, int scope) {
  if (ts::isNull(n))
    return std::nullopt;
  ValuePtr v = eval_.eval(n, scope);
  if (v->isStr() && v->str.complete)
    return v->str.value;
  return std::nullopt;
}

const Binding *ComputedTargets::valueBinding(TSNode identifier, int scope) {
  const Binding *b =
      table_.lookup(ts::text(identifier, src_), scope, ts::startByte(identifier), [](const Binding &) { return true; });
  return b && b->kind == Binding::Kind::Value ? b : nullptr;
}

std::optional<std::string> ComputedTargets::object(TSNode expr, int scope, unsigned depth) {
  if (depth > kMaxObjectDepth || ts::isNull(expr))
    return std::nullopt;
  if (!ts::isNull(typeHead_) && sameNode(expr, typeHead_)) {
    TSNode inner = ts::unparen(expr);
    typeHead_ = TSNode{};
    std::optional<std::string> base = object(inner, scope, depth + 1);
    return base ? std::optional<std::string>(*base + ".__class__") : std::nullopt;
  }
  TSNode n = ts::unparen(expr);
  switch (ts::kind(n)) {
  case K::Identifier: {
    Resolution r = resolver_.resolve(n, scope);
    if (r.throughImport)
      return r.resolved;
    if (const Binding *b = valueBinding(n, scope))
      return object(b->value, b->scope, depth + 1);
    // In an imported module `__builtins__` is the builtins namespace (a dict or the module).
    if (ts::text(n, src_) == "__builtins__" &&
        !table_.lookup("__builtins__", scope, ts::startByte(n), [](const Binding &) { return true; }))
      return std::string("builtins");
    return std::nullopt;
  }
  case K::Attribute: {
    Resolution r = resolver_.resolve(n, scope);
    if (r.pure && r.throughImport)
      return r.resolved;
    std::optional<std::string> base = object(ts::field(n, ts::F::Object), scope, depth + 1);
    if (!base)
      return std::nullopt;
    return *base + "." + ts::text(ts::field(n, ts::F::AttributeF), src_).str();
  }
  case K::Call: {
    TSNode fn = ts::unparen(ts::field(n, ts::F::Function));
    Resolution rf = resolver_.resolve(fn, scope);
    ts::Children args = positionalArgs(n);
    auto on = [&](std::size_t i) { return object(args[i], scope, depth + 1); };
    if (isBuiltinCall(rf, "type") && args.size() == 1) {
      if (auto base = on(0))
        return *base + ".__class__";
      return std::nullopt;
    }
    if (isBuiltinCall(rf, "getattr") && args.size() >= 2) {
      std::optional<std::string> base = on(0);
      std::optional<std::string> attr = staticString(args[1], scope);
      if (base && attr)
        return *base + "." + *attr;
      return std::nullopt;
    }
    if (isBuiltinCall(rf, "vars") && args.size() == 1) {
      if (auto base = on(0))
        return *base + ".__dict__";
      return std::nullopt;
    }
    const bool importModule = rf.resolved == "importlib.import_module";
    const bool dunderImport = isBuiltinCall(rf, "__import__");
    if ((importModule || dunderImport) && !args.empty()) {
      std::optional<std::string> name = staticString(args[0], scope);
      if (!name || name->empty())
        return std::nullopt;
      // __import__("a.b") returns the top-level package `a`.
      return dunderImport ? llvm::StringRef(*name).split('.').first.str() : *name;
    }
    // Any other call of a library callable: what it returns, spelled `callee()`.
    if (auto callee = object(fn, scope, depth + 1))
      return *callee + "()";
    return std::nullopt;
  }
  case K::Subscript: {
    std::optional<std::string> base = object(ts::field(n, ts::F::Value), scope, depth + 1);
    std::optional<std::string> key = staticString(ts::field(n, ts::F::Subscript), scope);
    if (!base || !key)
      return std::nullopt;
    if (*base == "sys.modules")
      return *key;
    if (llvm::StringRef(*base).endswith(".__dict__"))
      return llvm::StringRef(*base).drop_back(9).str() + "." + *key;
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

std::vector<std::string> ComputedTargets::itemStrings(TSNode iterable, int scope, unsigned depth) {
  std::vector<std::string> out;
  TSNode n = ts::unparen(iterable);
  if (ts::isNull(n) || depth > kMaxObjectDepth)
    return out;
  switch (ts::kind(n)) {
  case K::Dictionary: // iterating a dict yields its keys
    for (TSNode pair : ts::namedChildren(n)) {
      ts::Children kv = ts::namedChildren(pair);
      if (ts::kind(pair) != K::Pair || kv.empty())
        out.emplace_back(kDynamic);
      else
        out.push_back(staticString(kv[0], scope).value_or(std::string(kDynamic)));
    }
    return out;
  case K::Identifier:
    if (const Binding *b = valueBinding(n, scope))
      return itemStrings(b->value, b->scope, depth + 1);
    return out;
  case K::Call: {
    TSNode fn = ts::unparen(ts::field(n, ts::F::Function));
    Resolution rf = resolver_.resolve(fn, scope);
    ts::Children args = positionalArgs(n);
    // `d.keys()`: the dict's keys; `sorted(xs)`, `list(xs)` and the like: the same items.
    if (ts::kind(fn) == K::Attribute && ts::text(ts::field(fn, ts::F::AttributeF), src_) == "keys" && args.empty())
      return itemStrings(ts::field(fn, ts::F::Object), scope, depth + 1);
    for (llvm::StringRef wrapper : {"sorted", "list", "tuple", "set", "reversed", "iter", "frozenset"})
      if (isBuiltinCall(rf, wrapper) && args.size() == 1)
        return itemStrings(args[0], scope, depth + 1);
    return out;
  }
  default:
    break;
  }
  ValuePtr v = eval_.eval(n, scope);
  if (v->kind != Value::Kind::Seq)
    return out;
  for (const SeqItem &item : v->items) {
    if (out.size() >= kMaxCandidates)
      break;
    std::optional<std::string> s = item.splat ? std::nullopt : staticString(item.node, item.scope);
    out.push_back(s.value_or(std::string(kDynamic)));
  }
  return out;
}

std::vector<std::string> ComputedTargets::columnValues(TSNode iterable, int column, int scope, unsigned depth) {
  if (column < 0)
    return itemStrings(iterable, scope, depth);
  std::vector<std::string> out;
  TSNode n = ts::unparen(iterable);
  if (ts::kind(n) == K::Identifier) {
    if (const Binding *b = valueBinding(n, scope))
      return columnValues(b->value, column, b->scope, depth + 1);
    return out;
  }
  if (ts::kind(n) == K::Call) {
    TSNode fn = ts::unparen(ts::field(n, ts::F::Function));
    Resolution rf = resolver_.resolve(fn, scope);
    ts::Children args = positionalArgs(n);
    if (ts::kind(fn) == K::Attribute && ts::text(ts::field(fn, ts::F::AttributeF), src_) == "items" && args.empty())
      return column == 0 ? itemStrings(ts::field(fn, ts::F::Object), scope, depth + 1) : out;
    if (isBuiltinCall(rf, "zip"))
      return static_cast<std::size_t>(column) < args.size() ? itemStrings(args[column], scope, depth + 1) : out;
    if (isBuiltinCall(rf, "enumerate") && !args.empty())
      return column == 1 ? itemStrings(args[0], scope, depth + 1) : out;
    return out;
  }
  // A literal sequence of tuples: `for name, fn in (("allclose", f), ("equal", g))`.
  ValuePtr v = eval_.eval(n, scope);
  if (v->kind != Value::Kind::Seq)
    return out;
  for (const SeqItem &item : v->items) {
    if (out.size() >= kMaxCandidates)
      break;
    TSNode t = ts::unparen(item.node);
    ts::Children parts = ts::namedChildren(t);
    const bool tuple = ts::kind(t) == K::Tuple || ts::kind(t) == K::List;
    std::optional<std::string> s;
    if (!item.splat && tuple && static_cast<std::size_t>(column) < parts.size())
      s = staticString(parts[column], item.scope);
    out.push_back(s.value_or(std::string(kDynamic)));
  }
  return out;
}

std::vector<std::string> ComputedTargets::loopValues(TSNode name, int scope) {
  TSNode id = ts::unparen(name);
  if (ts::kind(id) != K::Identifier)
    return {};
  const llvm::StringRef text = ts::text(id, src_);
  TSNode cur = id;
  for (unsigned guard = 0; guard < 1024; ++guard) {
    TSNode p = ts_node_parent(cur);
    if (ts::isNull(p))
      break;
    switch (ts::kind(p)) {
    case K::FunctionDefinition:
    case K::ClassDefinition:
    case K::Lambda:
    case K::Module:
      return {}; // a def's body runs later, when the loop variable has moved on
    case K::ForStatement:
      if (sameNode(cur, ts::field(p, ts::F::Body)))
        if (std::optional<int> col = targetColumn(ts::field(p, ts::F::Left), text, src_))
          return columnValues(ts::field(p, ts::F::Right), *col, scope, 0);
      break;
    case K::ListComprehension:
    case K::SetComprehension:
    case K::DictionaryComprehension:
    case K::GeneratorExpression:
      for (TSNode c : ts::namedChildren(p))
        if (ts::tokenType(c) == "for_in_clause" && !sameNode(c, cur))
          if (std::optional<int> col = targetColumn(ts::field(c, ts::F::Left), text, src_))
            return columnValues(ts::field(c, ts::F::Right), *col, scope, 0);
      break;
    default:
      break;
    }
    cur = p;
  }
  return {};
}

std::string ComputedTargets::attributeName(TSNode name, int scope, std::vector<std::string> &candidates) {
  if (std::optional<std::string> s = staticString(name, scope))
    return *s;
  candidates = loopValues(name, scope);
  return std::string(kDynamic);
}

void ComputedTargets::describeTarget(TSNode target, int scope, Assignment &a) {
  target = ts::unparen(target);
  if (ts::kind(target) == K::Attribute) {
    Resolution r = resolver_.resolve(target, scope);
    if (r.pure && r.throughImport)
      return;
    if (std::optional<std::string> base = object(ts::field(target, ts::F::Object), scope))
      a.computedTarget = *base + "." + ts::text(ts::field(target, ts::F::AttributeF), src_).str();
    return;
  }
  if (ts::kind(target) != K::Subscript)
    return;
  TSNode value = ts::unparen(ts::field(target, ts::F::Value));
  std::optional<std::string> base = object(value, scope);
  if (!base)
    return;
  // `__builtins__[k]`: in an imported module `__builtins__` is the builtins dict itself.
  const bool builtinsDict = *base == "builtins" && ts::text(value, src_) == "__builtins__";
  if (!builtinsDict && !llvm::StringRef(*base).endswith(".__dict__"))
    return;
  const std::string attr = attributeName(ts::field(target, ts::F::Subscript), scope, a.nameCandidates);
  a.computedTarget = (builtinsDict ? *base : llvm::StringRef(*base).drop_back(9).str()) + "." + attr;
}

void ComputedTargets::describeSetattr(TSNode obj, TSNode name, int scope, Assignment &a) {
  const std::string attr = attributeName(name, scope, a.nameCandidates);
  Resolution r = resolver_.resolve(obj, scope);
  if (r.pure && r.throughImport)
    return;
  if (std::optional<std::string> base = object(obj, scope))
    a.computedTarget = *base + "." + attr;
}

void ComputedTargets::describeTypeTarget(TSNode chain, TSNode head, int scope, Assignment &a) {
  typeHead_ = head;
  chain = ts::unparen(chain);
  if (ts::kind(chain) == K::Attribute) {
    if (std::optional<std::string> base = object(ts::field(chain, ts::F::Object), scope))
      a.computedTarget = *base + "." + ts::text(ts::field(chain, ts::F::AttributeF), src_).str();
  } else if (ts::kind(chain) == K::Subscript) {
    // `type(obj).__dict__[k] = v` cannot be written (a mappingproxy); nothing to describe.
  }
  typeHead_ = TSNode{};
}

} // namespace kbaudit::py
