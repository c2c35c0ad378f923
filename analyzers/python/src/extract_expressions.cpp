// Expression-level facts: calls, name references, self accesses, identity checks, strings.

#include "computed_target.h"
#include "conditions.h"
#include "extractor.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>

namespace kbaudit::py {

using ts::K;

namespace {

// Methods that change the object they are called on: `self.cache.update(...)` writes
// the cache as surely as `self.cache[k] = v` does.
constexpr llvm::StringRef kMutators[] = {"append", "extend", "insert", "update", "setdefault", "clear",
                                         "pop",    "popitem", "add",   "remove", "discard",    "__setitem__"};

} // namespace

void Extractor::selfAccess(llvm::StringRef attr, Access access, TSNode at, const Frame &f) {
  auto emit = [&](bool write) {
    SelfAccess s;
    s.attribute = attr.str();
    s.write = write;
    s.function = f.function.str();
    s.lines = ts::lines(at);
    out_.selfAccesses.push_back(std::move(s));
  };
  if (access != Access::Write)
    emit(false);
  if (access != Access::Read)
    emit(true);
}

void Extractor::identity(llvm::StringRef kind, TSNode at, const Frame &f) {
  IdentityCheck c;
  c.kind = kind.str();
  TSNode quoted = comparisons_.empty() ? at : comparisons_.back();
  c.text = ts::truncated(text(quoted));
  c.function = f.function.str();
  c.lines = ts::lines(quoted);
  out_.identityChecks.push_back(std::move(c));
}

void Extractor::chain(TSNode n, const Frame &f, unsigned depth, Access access, TSNode mutated) {
  frameAttributes(n, f, access != Access::Read ? n : mutated);
  TSNode head = n;
  TSNode firstAttr{}; // the attribute directly on the head
  bool version = false;
  for (unsigned guard = 0; ts::kind(head) == K::Attribute && guard < 1024; ++guard) {
    firstAttr = ts::field(head, ts::F::AttributeF);
    version |= text(firstAttr) == "_version";
    head = ts::field(head, ts::F::Object);
  }
  if (version)
    identity("version", n, f);
  if (ts::kind(head) != K::Identifier) {
    // Something computed underneath (`x.float().abs`, `self.layers[0].w`): visit it.
    visit(head, f, depth + 1);
    return;
  }
  if (std::optional<Resolution> r = resolver_.resolveImported(n, f.scope)) {
    NameRef ref;
    ref.text = ts::truncated(text(n));
    ref.resolved = std::move(r->resolved);
    ref.function = f.function.str();
    ref.lines = ts::lines(n);
    out_.nameRefs.push_back(std::move(ref));
  }
  if (!ts::isNull(firstAttr) && !f.selfName.empty() && text(head) == f.selfName)
    selfAccess(text(firstAttr), access, n, f);
}

bool Extractor::isLaunch(TSNode kernel, TSNode index) const {
  K kk = ts::kind(kernel);
  if (kk != K::Identifier && kk != K::Attribute)
    return false;
  llvm::StringRef name = kk == K::Attribute ? text(ts::field(kernel, ts::F::AttributeF)) : text(kernel);
  if (tritonKernels_.contains(name))
    return true;
  TSNode idx = ts::unparen(index);
  switch (ts::kind(idx)) {
  case K::Integer:
  case K::String:
  case K::ConcatenatedString:
  case K::Slice:
  case K::UnaryOperator:
    return false; // `layers[0](x)`, `table["relu"](x)`
  case K::Tuple:
  case K::Lambda:
  case K::Call:
    return true; // `k[(n,)]`, `k[lambda meta: ...]`, `k[grid_fn(n)]`
  default:
    break;
  }
  if (llvm::StringRef(text(index)).contains_insensitive("grid"))
    return true;
  return name.contains_insensitive("kernel");
}

void Extractor::setattrCall(TSNode n, const Call &c, const Frame &f) {
  const Argument *obj = c.positionalArg(0);
  const Argument *name = c.positionalArg(1);
  const Argument *value = c.positionalArg(2);
  if (!obj || !name || !value)
    return;
  ts::Children args = ts::namedChildren(ts::field(n, ts::F::Arguments));
  TSNode objNode = ts::unparen(args[0]);
  std::string attr = name->value.string && name->value.string->complete ? name->value.string->value : "<dynamic>";
  Assignment a;
  a.op = "setattr";
  a.target = obj->value.text + "." + attr;
  Resolution r = resolver_.resolve(objNode, f.scope);
  a.resolved = r.resolved + "." + attr;
  bool isSelf = !f.selfName.empty() && ts::kind(objNode) == K::Identifier && text(objNode) == f.selfName;
  if (isSelf)
    a.kind = Assignment::TargetKind::SelfAttribute;
  else if (r.throughImport && r.pure)
    a.kind = Assignment::TargetKind::ModuleAttribute;
  else
    a.kind = Assignment::TargetKind::Attribute;
  a.value = value->value;
  a.function = f.function.str();
  a.lines = ts::lines(n);
  if (!isSelf) {
    // The name is the second positional argument: keyword arguments and splats are not.
    ts::Children positional;
    for (TSNode arg : args)
      if (ts::kind(arg) != K::KeywordArgument && ts::kind(arg) != K::ListSplat && ts::kind(arg) != K::DictionarySplat)
        positional.push_back(arg);
    if (positional.size() >= 2)
      ComputedTargets(table_, resolver_, eval_, src_).describeSetattr(objNode, positional[1], f.scope, a);
  }
  out_.assignments.push_back(std::move(a));
  ownAssignment(out_.assignments.size() - 1);
  if (isSelf && attr != "<dynamic>")
    selfAccess(attr, Access::Write, n, f);
}

void Extractor::call(TSNode n, const Frame &f, unsigned depth) {
  TSNode fnNode = ts::field(n, ts::F::Function);
  TSNode fn = ts::unparen(fnNode);
  TSNode argsNode = ts::field(n, ts::F::Arguments);
  Call c;
  c.callee = ts::truncated(text(fnNode));
  Resolution r = resolver_.resolve(fn, f.scope);
  c.resolved = r.resolved;
  switch (ts::kind(fn)) {
  case K::Attribute:
    c.method = text(ts::field(fn, ts::F::AttributeF)).str();
    c.receiver = ts::truncated(text(ts::field(fn, ts::F::Object)));
    break;
  case K::Identifier:
    c.method = text(fn).str();
    break;
  case K::Call: { // getattr(obj, "name")(...) is obj.name(...)
    auto [object, attr] = resolver_.constantGetattr(fn, f.scope);
    if (!ts::isNull(object)) {
      c.method = attr;
      c.receiver = ts::truncated(text(object));
      c.callee = c.receiver + "." + attr;
    }
    break;
  }
  case K::Subscript: {
    TSNode kernel = ts::unparen(ts::field(fn, ts::F::Value));
    if (isLaunch(kernel, ts::field(fn, ts::F::Subscript))) {
      c.launchedKernel = ts::truncated(text(kernel));
      if (ts::kind(kernel) == K::Attribute) {
        c.method = text(ts::field(kernel, ts::F::AttributeF)).str();
        c.receiver = ts::truncated(text(ts::field(kernel, ts::F::Object)));
      } else {
        c.method = text(kernel).str();
      }
    }
    break;
  }
  default:
    break;
  }

  ts::Children args;
  if (ts::kind(argsNode) == K::ArgumentList)
    args = ts::namedChildren(argsNode);
  else if (!ts::isNull(argsNode))
    args.push_back(argsNode); // f(x for x in xs)
  c.args.reserve(args.size());
  for (TSNode a : args) {
    Argument arg;
    switch (ts::kind(a)) {
    case K::KeywordArgument:
      arg.keyword = text(ts::field(a, ts::F::Name)).str();
      arg.value = summarize(ts::field(a, ts::F::Value), f);
      break;
    case K::ListSplat:
    case K::DictionarySplat: {
      arg.keyword = ts::kind(a) == K::ListSplat ? "*" : "**";
      ts::Children inner = ts::namedChildren(a);
      arg.value = summarize(inner.empty() ? a : inner[0], f);
      break;
    }
    default:
      arg.value = summarize(a, f);
      break;
    }
    c.args.push_back(std::move(arg));
  }
  c.function = f.function.str();
  c.lines = ts::lines(n);

  if (isBuiltinCall(r, "setattr"))
    setattrCall(n, c, f);
  if (isBuiltinCall(r, "getattr") && !f.selfName.empty()) {
    const Argument *obj = c.positionalArg(0);
    const Argument *name = c.positionalArg(1);
    if (obj && name && obj->value.kind == ExprKind::Name && obj->value.text == f.selfName && name->value.string &&
        name->value.string->complete)
      selfAccess(name->value.string->value, Access::Read, n, f);
  }
  if (isBuiltinCall(r, "id"))
    identity("id", n, f);
  if (ts::kind(fn) == K::Attribute && c.method == "data_ptr")
    identity("data_ptr", n, f);
  bool mutates = false;
  const bool mutator = ts::kind(fn) == K::Attribute && llvm::is_contained(kMutators, c.method);
  if (mutator) {
    TSNode obj = ts::field(fn, ts::F::Object);
    TSNode objHead = ts::field(obj, ts::F::Object);
    mutates = ts::kind(obj) == K::Attribute && ts::kind(objHead) == K::Identifier && !f.selfName.empty() &&
              text(objHead) == f.selfName;
  }
  out_.calls.push_back(std::move(c));
  callBytes_.emplace_back(ts::startByte(n), ts::endByte(n));
  ownCall(out_.calls.size() - 1);
  if (ts::kind(fn) == K::Attribute) {
    TSNode object = ts::unparen(ts::field(fn, ts::F::Object));
    if (ts::kind(object) == K::Call)
      receiverCalls_.push_back({out_.calls.size() - 1, ts::startByte(object), ts::endByte(object)});
  }

  maybeStringConstant(n, f);
  if (ts::kind(fn) == K::Identifier || ts::kind(fn) == K::Attribute)
    chain(fn, f, depth + 1, Access::Read, mutator ? ts::field(fn, ts::F::Object) : TSNode{});
  else
    visit(fn, f, depth + 1);
  if (mutates) {
    TSNode obj = ts::field(fn, ts::F::Object);
    selfAccess(text(ts::field(obj, ts::F::AttributeF)), Access::Write, obj, f);
  }
  for (TSNode a : args)
    visit(a, f, depth + 1);
}

void Extractor::comparison(TSNode n, const Frame &f, unsigned depth) {
  ts::Children kids = ts::children(n);
  bool isIdentity = false;
  for (size_t i = 0; i + 1 < kids.size(); ++i) {
    if (ts_node_is_named(kids[i]))
      continue;
    llvm::StringRef op = ts::tokenType(kids[i]);
    if ((op == "is" || op == "is not") && i > 0 && !isSingletonOperand(kids[i - 1], src_) &&
        !isSingletonOperand(kids[i + 1], src_))
      isIdentity = true;
  }
  comparisons_.push_back(n);
  if (isIdentity)
    identity("is", n, f);
  for (TSNode c : kids)
    if (ts_node_is_named(c))
      visit(c, f, depth + 1);
  comparisons_.pop_back();
}

void Extractor::maybeStringConstant(TSNode n, const Frame &f) {
  if (eval_.consumed(n) || !eval_.literalRooted(n))
    return;
  ValuePtr v = eval_.eval(n, f.scope);
  if (!v->isStr())
    return;
  StringConstant s;
  s.value = v->str;
  s.docstring = !ts::isNull(f.docstring) && ts::key(f.docstring) == ts::key(n);
  s.function = f.function.str();
  s.lines = ts::lines(n);
  out_.strings.push_back(std::move(s));
}

void Extractor::stringNode(TSNode n, const Frame &f, unsigned depth) {
  maybeStringConstant(n, f);
  if (ts::kind(n) == K::ConcatenatedString) {
    for (TSNode part : ts::namedChildren(n))
      if (ts::kind(part) == K::String)
        stringNode(part, f, depth + 1);
    return;
  }
  // Only interpolations can hold facts (calls, names) inside a literal.
  for (TSNode part : ts::namedChildren(n)) {
    if (ts::kind(part) != K::Interpolation)
      continue;
    visit(ts::field(part, ts::F::Expression), f, depth + 1);
    TSNode spec = ts::field(part, ts::F::FormatSpecifier);
    for (TSNode e : ts::namedChildren(spec))
      if (ts::kind(e) == K::FormatExpression)
        visit(ts::field(e, ts::F::Expression), f, depth + 2);
  }
}

} // namespace kbaudit::py
