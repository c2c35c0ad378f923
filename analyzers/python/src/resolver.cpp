#include "resolver.h"

#include "string_literal.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>

#include <list>

namespace kbaudit::py {

using ts::K;

namespace {
constexpr unsigned kMaxAliasDepth = 16;

// A constant table: a braced list of literals in the loop was built, strlen and all, on each of
// the resolver's calls (540 instructions a call).
constexpr llvm::StringRef kWatchedBuiltins[] = {
    "id",   "hash", "getattr", "setattr",    "hasattr", "delattr",    "globals", "locals", "vars",
    "eval", "exec", "compile", "__import__", "open",    "isinstance", "type",    "super",  "print"};

/// Builtins whose use rules ask about; a module-level alias of one (`_ident = id`) is the builtin.
bool isWatchedBuiltin(llvm::StringRef name) {
  for (llvm::StringRef b : kWatchedBuiltins)
    if (name == b)
      return true;
  return false;
}

} // namespace

std::optional<std::string> Resolver::builtinAlias(llvm::StringRef name, int scope, uint32_t pos, unsigned depth) {
  if (depth > kMaxAliasDepth)
    return std::nullopt;
  // The binding the use sees: the first one lookup offers.
  const Binding *seen = table_.lookup(name, scope, pos, [](const Binding &) { return true; });
  return builtinAliasOf(seen, name, depth);
}

std::optional<std::string> Resolver::builtinAliasOf(const Binding *seen, llvm::StringRef name, unsigned depth) {
  if (!seen)
    return isWatchedBuiltin(name) ? std::optional<std::string>(name.str()) : std::nullopt;
  if (seen->kind != Binding::Kind::Value || seen->parameter)
    return std::nullopt;
  TSNode v = ts::unparen(seen->value);
  if (ts::kind(v) != K::Identifier)
    return std::nullopt;
  return builtinAlias(ts::text(v, src_), seen->scope, ts::startByte(v), depth + 1);
}

/// `getattr(obj, "name")` with a constant name: the attribute access `obj.name`. Returns the
/// object node and the name, or a null node.
std::pair<TSNode, std::string> Resolver::constantGetattr(TSNode call, int scope, unsigned depth) {
  TSNode fn = ts::unparen(ts::field(call, ts::F::Function));
  if (ts::kind(fn) != K::Identifier || builtinAlias(ts::text(fn, src_), scope, ts::startByte(fn), depth) != "getattr")
    return {TSNode{}, {}};
  ts::Children args = ts::namedChildren(ts::field(call, ts::F::Arguments));
  if (args.size() < 2 || args.size() > 3 || ts::kind(args[1]) != K::String || ts::kind(args[0]) == K::KeywordArgument)
    return {TSNode{}, {}};
  StringValue name = decodeString(args[1], src_, [](TSNode, StringValue &, unsigned) { return false; });
  if (!name.complete || name.value.empty() || name.value.find_first_of(". ()[]") != std::string::npos)
    return {TSNode{}, {}};
  return {args[0], name.value};
}

std::optional<std::string> Resolver::importTarget(llvm::StringRef name, int scope, uint32_t pos, unsigned depth) {
  const Binding *seen = nullptr;
  return importTarget(name, scope, pos, depth, seen);
}

std::optional<std::string> Resolver::importTarget(llvm::StringRef name, int scope, uint32_t pos, unsigned depth,
                                                  const Binding *&seen) {
  if (depth > kMaxAliasDepth)
    return std::nullopt;
  std::optional<std::string> found;
  table_.lookup(name, scope, pos, [&](const Binding &b) {
    if (!seen)
      seen = &b; // the binding the use sees (builtinAlias's), whether or not it is an import
    if (b.parameter)
      return true; // `def f(F): F.relu(x)`: the parameter hides any module F
    if (b.kind == Binding::Kind::Import) {
      found = b.target;
      return true;
    }
    if (b.kind == Binding::Kind::Value) {
      if (auto a = aliasOf(b, depth + 1)) {
        found = std::move(a);
        return true;
      }
    }
    return false;
  });
  return found;
}

std::optional<std::string> Resolver::aliasOf(const Binding &b, unsigned depth) {
  auto memo = aliasMemo_.find(&b);
  if (memo != aliasMemo_.end())
    return memo->second;
  // Break cycles: a binding being resolved is not an alias while it is being resolved.
  aliasMemo_[&b] = std::nullopt;
  std::optional<std::string> result;
  TSNode v = ts::unparen(b.value);
  switch (ts::kind(v)) {
  case K::Identifier:
  case K::Attribute: {
    Resolution r = resolve(v, b.scope, depth + 1);
    if (r.pure && r.throughImport)
      result = r.resolved;
    break;
  }
  case K::Call: {
    Resolution fn = resolve(ts::field(v, ts::F::Function), b.scope, depth + 1);
    bool importModule = fn.resolved == "importlib.import_module";
    bool dunderImport = isBuiltinCall(fn, "__import__");
    if (!importModule && !dunderImport)
      break;
    ts::Children args = ts::namedChildren(ts::field(v, ts::F::Arguments));
    if (args.empty() || ts::kind(args[0]) != K::String)
      break;
    StringValue name = decodeString(args[0], src_, [](TSNode, StringValue &, unsigned) { return false; });
    if (!name.complete || name.value.empty())
      break;
    // __import__("a.b") returns the top-level package `a`.
    result = dunderImport ? llvm::StringRef(name.value).split('.').first.str() : name.value;
    break;
  }
  default:
    break;
  }
  aliasMemo_[&b] = result;
  return result;
}

Resolution Resolver::resolve(TSNode expr, int scope, unsigned depth) { return compute(expr, scope, depth, false); }

std::optional<Resolution> Resolver::resolveImported(TSNode expr, int scope) {
  Resolution r = compute(expr, scope, 0, true);
  if (!r.throughImport)
    return std::nullopt;
  return r;
}

Resolution Resolver::compute(TSNode expr, int scope, unsigned depth, bool importsOnly) {
  Resolution r;
  TSNode n = ts::unparen(expr);
  // Walk down to the head of the chain, remembering each step: ".name", "(...)", "[...]". A
  // step is a piece of the source (an attribute's name) or a constant: no string per step.
  struct Step {
    bool attribute; ///< ".text"; else `text` as is
    llvm::StringRef text;
  };
  llvm::SmallVector<Step, 8> steps;
  std::list<std::string> getattrNames; // `getattr(obj, "name")`'s names, owned here (rare)
  bool pure = true;
  TSNode cur = n;
  for (unsigned guard = 0; guard < 512; ++guard) {
    K k = ts::kind(cur);
    if (k == K::Attribute) {
      steps.push_back({true, ts::text(ts::field(cur, ts::F::AttributeF), src_)});
      cur = ts::field(cur, ts::F::Object);
    } else if (k == K::Call) {
      // getattr(obj, "name") is obj.name, however it is spelled.
      if (auto [object, attr] = constantGetattr(cur, scope, depth); !ts::isNull(object)) {
        steps.push_back({true, getattrNames.emplace_back(std::move(attr))});
        cur = object;
        continue;
      }
      pure = false;
      TSNode args = ts::field(cur, ts::F::Arguments);
      steps.push_back({false, ts::namedChildren(args).empty() && ts::kind(args) == K::ArgumentList ? "()" : "(...)"});
      cur = ts::field(cur, ts::F::Function);
    } else if (k == K::Subscript) {
      pure = false;
      steps.push_back({false, "[...]"});
      cur = ts::field(cur, ts::F::Value);
    } else if (k == K::ParenthesizedExpression) {
      TSNode inner = ts::unparen(cur);
      if (ts::kind(inner) == K::ParenthesizedExpression)
        break;
      cur = inner;
    } else {
      break;
    }
  }
  if (ts::kind(cur) != K::Identifier) {
    if (!importsOnly)
      r.resolved = ts::truncated(ts::text(n, src_));
    return r;
  }
  llvm::StringRef head = ts::text(cur, src_);
  r.pure = pure;
  // One lookup answers both questions: the first binding the import search visits is the one
  // builtinAlias would look up again.
  const Binding *seen = nullptr;
  std::optional<std::string> target = importTarget(head, scope, ts::startByte(cur), depth, seen);
  r.throughImport = target.has_value();
  if (!target && importsOnly)
    return r;
  r.resolved = target ? std::move(*target) : head.str();
  if (!target) { // `_ident = id; _ident(x)` calls the builtin; a parameter named `id` does not
    const std::optional<std::string> builtin =
        depth > kMaxAliasDepth ? std::nullopt : builtinAliasOf(seen, head, depth);
    if (builtin && *builtin != head)
      r.resolved = *builtin;
    r.shadowsBuiltin = !builtin && isWatchedBuiltin(head);
  }
  // Impure chains abbreviate arguments and indices ("torch.randn(...).cuda"): rules match
  // on the shape of the chain, and the text as written is kept elsewhere.
  std::size_t length = r.resolved.size();
  for (const Step &step : steps)
    length += step.attribute + step.text.size();
  r.resolved.reserve(length);
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (it->attribute)
      r.resolved += '.';
    r.resolved += it->text;
  }
  if (r.resolved.size() > 512)
    r.resolved = ts::truncated(r.resolved);
  return r;
}

} // namespace kbaudit::py
