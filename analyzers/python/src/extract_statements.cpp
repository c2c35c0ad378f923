// Statement-level facts: imports, defs and classes, assignments, branches (with their arms),
// returns, try/except.

#include "computed_target.h"
#include "conditions.h"
#include "extractor.h"
#include "imports.h"

#include <algorithm>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/ADT/STLExtras.h>

#include <set>

namespace kbaudit::py {

using ts::K;

TSNode Extractor::docstringOf(TSNode block) {
  ts::Children stmts = ts::namedChildren(block);
  if (stmts.empty() || ts::kind(stmts[0]) != K::ExpressionStatement)
    return TSNode{};
  ts::Children kids = ts::namedChildren(stmts[0]);
  if (kids.size() != 1)
    return TSNode{};
  K k = ts::kind(kids[0]);
  return k == K::String || k == K::ConcatenatedString ? kids[0] : TSNode{};
}

void Extractor::imports(TSNode n, const Frame &f) {
  llvm::SmallVector<ImportedName, 4> names;
  listImports(n, src_, names);
  for (ImportedName &in : names) {
    Import imp;
    imp.boundName = std::move(in.local);
    imp.target = std::move(in.target);
    imp.fromImport = in.fromImport;
    imp.function = f.function.str();
    imp.lines = ts::lines(n);
    out_.imports.push_back(std::move(imp));
  }
}

void Extractor::definition(TSNode def, TSNode outer, const ts::Children &decorators, const Frame &f,
                           unsigned depth) {
  std::vector<Decorator> decs;
  for (TSNode d : decorators) {
    ts::Children kids = ts::namedChildren(d);
    if (kids.empty())
      continue;
    TSNode e = ts::unparen(kids[0]);
    Decorator dec;
    dec.text = ts::truncated(text(e));
    dec.resolved = resolver_.resolve(ts::kind(e) == K::Call ? ts::field(e, ts::F::Function) : e, f.scope).resolved;
    dec.lines = ts::lines(d);
    decs.push_back(std::move(dec));
  }
  if (ts::kind(def) == K::ClassDefinition)
    classDef(def, outer, std::move(decs), f, depth);
  else if (ts::kind(def) == K::FunctionDefinition)
    functionDef(def, outer, std::move(decs), f, depth);
}

void Extractor::parameters(TSNode params, const Frame &f, unsigned depth) {
  // Defaults and annotations are evaluated where the def is, not inside it.
  for (TSNode p : ts::namedChildren(params)) {
    switch (ts::kind(p)) {
    case K::DefaultParameter:
      visit(ts::field(p, ts::F::Value), f, depth + 1);
      break;
    case K::TypedDefaultParameter:
      visit(ts::field(p, ts::F::Type), f, depth + 1);
      visit(ts::field(p, ts::F::Value), f, depth + 1);
      break;
    case K::TypedParameter:
      visit(ts::field(p, ts::F::Type), f, depth + 1);
      break;
    default:
      break;
    }
  }
}

std::string parameterName(TSNode p, llvm::StringRef src) {
  switch (ts::kind(p)) {
  case K::Identifier:
    return ts::text(p, src).str();
  case K::DefaultParameter:
  case K::TypedDefaultParameter:
    return ts::text(ts::field(p, ts::F::Name), src).str();
  case K::TypedParameter: {
    ts::Children kids = ts::namedChildren(p);
    return kids.empty() || ts::kind(kids[0]) == K::Type ? std::string() : parameterName(kids[0], src);
  }
  case K::ListSplatPattern:
  case K::DictionarySplatPattern: {
    ts::Children kids = ts::namedChildren(p);
    std::string stars = ts::kind(p) == K::ListSplatPattern ? "*" : "**";
    return kids.empty() ? std::string() : stars + ts::text(kids[0], src).str();
  }
  default:
    return {}; // `*` and `/` separators
  }
}

namespace {

// Identifiers a body mentions as values: the object of an attribute but not its name, the
// value of a keyword argument but not its keyword. Deep nesting stops the walk and makes the
// result opaque rather than silently short. `read` gets each identifier (a name of the source's
// text, which outlives the walk).
template <typename Read>
void collectReads(TSNode n, llvm::StringRef src, Read &read, bool &opaque, unsigned depth, bool skipDeleted = false) {
  if (ts::isNull(n))
    return;
  if (depth > 256) {
    opaque = true;
    return;
  }
  switch (ts::kind(n)) {
  case K::DeleteStatement:
    // `del x` (and `del x, y`) unbinds the name without reading its value; `del x[0]` reads x.
    if (skipDeleted) {
      for (TSNode c : ts::namedChildren(n)) {
        ts::Children targets = ts::kind(c) == K::ExpressionList ? ts::namedChildren(c) : ts::Children{c};
        for (TSNode t : targets)
          if (ts::kind(t) != K::Identifier)
            collectReads(t, src, read, opaque, depth + 1, skipDeleted);
      }
      return;
    }
    break;
  case K::Identifier: {
    const llvm::StringRef name = ts::text(n, src);
    if (name == "locals" || name == "vars" || name == "eval" || name == "exec")
      opaque = true;
    read(name);
    return;
  }
  case K::Attribute:
    collectReads(ts::field(n, ts::F::Object), src, read, opaque, depth + 1, skipDeleted);
    return;
  case K::KeywordArgument:
    collectReads(ts::field(n, ts::F::Value), src, read, opaque, depth + 1, skipDeleted);
    return;
  default:
    break;
  }
  for (TSNode c : ts::namedChildren(n))
    collectReads(c, src, read, opaque, depth + 1, skipDeleted);
}

/// A body's read names, each with whether it is also read outside a bare `del` target ("kept").
/// Keyed by the source's own text: no string is copied per identifier.
using ReadSet = llvm::DenseMap<llvm::StringRef, bool>;

// Both of a body's read sets in one walk: every name as collectReads gives it, and (the value
// true) those it gives with skipDeleted (they differ only inside `del`, where each gets its own
// walk). Two whole walks per def, each inserting every identifier, were an eighth of the Python
// front end; two string sets, one string copy per name in each, were most of what was left.
void collectReadsAndKept(TSNode n, llvm::StringRef src, ReadSet &reads, bool &opaque, unsigned depth) {
  if (ts::isNull(n))
    return;
  if (depth > 256) {
    opaque = true;
    return;
  }
  switch (ts::kind(n)) {
  case K::DeleteStatement: {
    auto all = [&](llvm::StringRef name) { reads.try_emplace(name, false); };
    collectReads(n, src, all, opaque, depth);
    auto kept = [&](llvm::StringRef name) { reads[name] = true; };
    bool ignored = false;
    collectReads(n, src, kept, ignored, depth, /*skipDeleted=*/true);
    return;
  }
  case K::Identifier: {
    const llvm::StringRef name = ts::text(n, src);
    if (name == "locals" || name == "vars" || name == "eval" || name == "exec")
      opaque = true;
    reads[name] = true;
    return;
  }
  case K::Attribute:
    collectReadsAndKept(ts::field(n, ts::F::Object), src, reads, opaque, depth + 1);
    return;
  case K::KeywordArgument:
    collectReadsAndKept(ts::field(n, ts::F::Value), src, reads, opaque, depth + 1);
    return;
  default:
    break;
  }
  for (TSNode c : ts::namedChildren(n))
    collectReadsAndKept(c, src, reads, opaque, depth + 1);
}

} // namespace

void Extractor::functionDef(TSNode def, TSNode outer, std::vector<Decorator> decorators, const Frame &f,
                            unsigned depth) {
  int s = table_.scopeFor(def, -1);
  Function fn;
  fn.name = text(ts::field(def, ts::F::Name)).str();
  if (s >= 0) {
    fn.qualname = table_.scopes[s].qualname;
    fn.className = table_.scopes[s].className;
  } else { // beyond the scope builder's depth limit
    fn.qualname = f.function.empty() ? fn.name : f.function.str() + "." + fn.name;
  }
  TSNode params = ts::field(def, ts::F::Parameters);
  for (TSNode p : ts::namedChildren(params)) {
    std::string name = parameterName(p, src_);
    if (name.empty())
      continue;
    if (ts::kind(p) == K::DefaultParameter || ts::kind(p) == K::TypedDefaultParameter)
      fn.defaultedParams.push_back(name);
    fn.params.push_back(std::move(name));
  }
  fn.decorators = std::move(decorators);
  fn.lines = ts::lines(outer);
  // A def whose body only hands its parameters to a helper computes what the helper computes:
  // its facts are the helper's body, read as its own (moving code into a helper changes nothing).
  const TSNode source = inlinedBody(def);
  // Rules scope a function's facts by its lines too: an inlined def spans the body it reads.
  if (!ts_node_eq(source, def))
    fn.lines = ts::lines(source);
  {
    bool opaque = false;
    if (!ts_node_eq(source, def)) {
      // What the def reads is what its helper reads: passing a parameter on is not using it
      // (the def's own body still counts toward opacity).
      auto ignore = [](llvm::StringRef) {};
      collectReads(ts::field(def, ts::F::Body), src_, ignore, opaque, 0);
    }
    // With bare `del` targets left out too: a name not kept is only deleted.
    ReadSet reads;
    collectReadsAndKept(ts::field(source, ts::F::Body), src_, reads, opaque, 0);
    llvm::SmallVector<std::pair<llvm::StringRef, bool>, 32> sorted(reads.begin(), reads.end());
    llvm::sort(sorted, [](const auto &a, const auto &b) { return a.first < b.first; });
    fn.reads.reserve(sorted.size());
    for (const auto &[name, kept] : sorted) {
      fn.reads.push_back(name.str());
      if (!kept)
        fn.onlyDeleted.push_back(name.str());
    }
    fn.opaqueReads = opaque;
  }
  fn.stmt = currentStmt_;
  if (currentStmt_ >= 0 && out_.statements[static_cast<size_t>(currentStmt_)].kind == StmtKind::Def)
    out_.statements[static_cast<size_t>(currentStmt_)].def = fn.qualname;
  out_.functions.push_back(std::move(fn));

  parameters(params, f, depth);
  visit(ts::field(def, ts::F::ReturnType), f, depth + 1);
  if (s < 0)
    return;
  const Scope &sc = table_.scopes[s];
  Frame body;
  body.scope = s;
  body.function = sc.qualname;
  body.selfName = sc.selfName;
  body.classScope = sc.classScope;
  TSNode block = ts::field(def, ts::F::Body);
  body.docstring = docstringOf(block);
  openBlock(StmtBlock::Role::Body);
  visitChildren(block, body, depth);
  if (ts_node_eq(source, def))
    return;
  openBlock(StmtBlock::Role::Inlined);
  // The body it delegates to, read again as its own: names resolve where they are written.
  Frame inlined = body;
  inlined.scope = table_.scopeFor(source, s);
  TSNode helperBlock = ts::field(source, ts::F::Body);
  inlined.docstring = docstringOf(helperBlock);
  visitChildren(helperBlock, inlined, depth);
}

void Extractor::classDef(TSNode def, TSNode outer, std::vector<Decorator> decorators, const Frame &f,
                         unsigned depth) {
  Class c;
  c.name = text(ts::field(def, ts::F::Name)).str();
  TSNode supers = ts::field(def, ts::F::Superclasses);
  for (TSNode b : ts::namedChildren(supers)) {
    K k = ts::kind(b);
    if (k == K::KeywordArgument || k == K::ListSplat || k == K::DictionarySplat)
      continue; // metaclass=..., **kwargs
    c.bases.push_back(resolver_.resolve(b, f.scope).resolved);
  }
  TSNode block = ts::field(def, ts::F::Body);
  for (TSNode stmt : ts::namedChildren(block)) {
    TSNode d = stmt;
    if (ts::kind(d) == K::DecoratedDefinition)
      d = ts::field(d, ts::F::Definition);
    if (ts::kind(d) == K::FunctionDefinition)
      c.methods.push_back(text(ts::field(d, ts::F::Name)).str());
  }
  c.decorators = std::move(decorators);
  c.lines = ts::lines(outer);
  out_.classes.push_back(std::move(c));

  visit(supers, f, depth + 1);
  int s = table_.scopeFor(def, -1);
  if (s < 0)
    return;
  Frame body;
  body.scope = s;
  body.function = f.function; // class bodies are not defs: keep the enclosing def
  body.docstring = docstringOf(block);
  if (currentStmt_ >= 0 && out_.statements[static_cast<size_t>(currentStmt_)].kind == StmtKind::Class)
    out_.statements[static_cast<size_t>(currentStmt_)].def = out_.classes.back().name;
  openBlock(StmtBlock::Role::Body);
  visitChildren(block, body, depth);
}

void Extractor::emitAssignment(TSNode target, Expr value, llvm::StringRef op, TSNode stmt, const Frame &f) {
  Assignment a;
  a.target = ts::truncated(text(target));
  a.op = op.str();
  a.value = std::move(value);
  a.function = f.function.str();
  a.lines = ts::lines(stmt);
  switch (ts::kind(target)) {
  case K::Identifier:
    a.kind = Assignment::TargetKind::Name;
    a.resolved = a.target;
    break;
  case K::Attribute: {
    TSNode obj = ts::unparen(ts::field(target, ts::F::Object));
    Resolution r = resolver_.resolve(target, f.scope);
    a.resolved = r.resolved;
    if (!f.selfName.empty() && ts::kind(obj) == K::Identifier && text(obj) == f.selfName)
      a.kind = Assignment::TargetKind::SelfAttribute;
    else if (r.throughImport)
      a.kind = Assignment::TargetKind::ModuleAttribute;
    else
      a.kind = Assignment::TargetKind::Attribute;
    break;
  }
  case K::Subscript:
    a.kind = Assignment::TargetKind::Subscript;
    a.resolved = resolver_.resolve(target, f.scope).resolved;
    break;
  default:
    a.kind = Assignment::TargetKind::Other;
    a.resolved = a.target;
    break;
  }
  if (a.kind == Assignment::TargetKind::Attribute || a.kind == Assignment::TargetKind::ModuleAttribute ||
      a.kind == Assignment::TargetKind::Subscript)
    ComputedTargets(table_, resolver_, eval_, src_).describeTarget(target, f.scope, a);
  out_.assignments.push_back(std::move(a));
  ownAssignment(out_.assignments.size() - 1);
}

namespace {
bool isSequenceTarget(K k) {
  return k == K::PatternList || k == K::TuplePattern || k == K::ListPattern || k == K::ExpressionList ||
         k == K::Tuple || k == K::List;
}
} // namespace

void Extractor::emitTargets(TSNode target, TSNode value, Expr valueExpr, llvm::StringRef op, TSNode stmt,
                            const Frame &f) {
  target = ts::unparen(target);
  K tk = ts::kind(target);
  if (tk == K::ListSplatPattern || tk == K::ListSplat) {
    ts::Children inner = ts::namedChildren(target);
    if (!inner.empty())
      emitTargets(inner[0], value, std::move(valueExpr), op, stmt, f);
    return;
  }
  if (!isSequenceTarget(tk)) {
    emitAssignment(target, std::move(valueExpr), op, stmt, f);
    return;
  }
  ts::Children targets = ts::namedChildren(target);
  TSNode v = ts::unparen(value);
  if (op == "=" && isSequenceTarget(ts::kind(v))) {
    ts::Children values = ts::namedChildren(v);
    bool splat = llvm::any_of(targets, [](TSNode n) { return ts::kind(n) == K::ListSplatPattern; }) ||
                 llvm::any_of(values, [](TSNode n) { return ts::kind(n) == K::ListSplat; });
    if (!splat && values.size() == targets.size()) {
      for (size_t i = 0; i < targets.size(); ++i)
        emitTargets(targets[i], values[i], summarize(values[i], f), op, stmt, f);
      return;
    }
  }
  for (TSNode t : targets)
    emitTargets(t, value, valueExpr, op, stmt, f);
}

void Extractor::assignment(TSNode n, const Frame &f, unsigned depth) {
  ts::Children targets;
  TSNode cur = n;
  for (unsigned guard = 0; ts::kind(cur) == K::Assignment && guard < 64; ++guard) {
    targets.push_back(ts::field(cur, ts::F::Left));
    visit(ts::field(cur, ts::F::Type), f, depth + 1);
    cur = ts::field(cur, ts::F::Right);
  }
  if (!ts::isNull(cur) && ts::kind(cur) != K::AugmentedAssignment && ts::kind(cur) != K::Assignment) {
    Expr value = summarize(cur, f);
    for (size_t i = 0; i < targets.size(); ++i) // `a = b = v`: each but the last gets a copy
      emitTargets(targets[i], cur, i + 1 < targets.size() ? Expr(value) : std::move(value), "=", n, f);
  }
  visit(cur, f, depth + 1);
  for (TSNode t : targets)
    visitTarget(t, f, depth + 1, Access::Write);
}

void Extractor::augmented(TSNode n, const Frame &f, unsigned depth) {
  TSNode left = ts::field(n, ts::F::Left);
  TSNode right = ts::field(n, ts::F::Right);
  llvm::StringRef op = ts::tokenType(ts::field(n, ts::F::Operator));
  emitTargets(left, right, summarize(right, f), op, n, f);
  visit(right, f, depth + 1);
  visitTarget(left, f, depth + 1, Access::ReadWrite);
}

void Extractor::walrus(TSNode n, const Frame &f, unsigned depth) {
  TSNode name = ts::field(n, ts::F::Name);
  TSNode value = ts::field(n, ts::F::Value);
  emitAssignment(name, summarize(value, f), ":=", n, f);
  visit(value, f, depth + 1);
}

void Extractor::withStatement(TSNode n, const Frame &f, unsigned depth) {
  for (TSNode clause : ts::namedChildren(n)) {
    if (ts::kind(clause) != K::WithClause) {
      visit(clause, f, depth + 1);
      continue;
    }
    for (TSNode item : ts::namedChildren(clause)) {
      TSNode v = ts::field(item, ts::F::Value);
      if (ts::kind(v) != K::AsPattern) {
        withItem(v, TSNode{}, f, depth);
        continue;
      }
      // `with open(p, "w") as fh:` binds fh like an assignment would.
      ts::Children parts = ts::namedChildren(v);
      TSNode resource = parts.empty() ? TSNode{} : parts[0];
      TSNode alias = ts::field(v, ts::F::Alias);
      ts::Children aliasKids = ts::namedChildren(alias);
      TSNode target = aliasKids.empty() ? TSNode{} : aliasKids[0];
      if (!ts::isNull(resource) && !ts::isNull(target))
        emitTargets(target, resource, summarize(resource, f), "with", item, f);
      withItem(resource, target, f, depth);
      if (!ts::isNull(target))
        visitTarget(target, f, depth + 2, Access::Write);
    }
  }
}

void Extractor::withItem(TSNode resource, TSNode target, const Frame &f, unsigned depth) {
  WithItem item;
  item.value = summarize(resource, f);
  item.target = ts::truncated(text(target));
  const size_t before = out_.calls.size();
  visit(resource, f, depth + 2);
  // call() records the outermost call first: the context manager's own call.
  if (ts::kind(ts::unparen(resource)) == K::Call && out_.calls.size() > before)
    item.call = static_cast<int>(before);
  if (currentStmt_ >= 0 && out_.statements[static_cast<size_t>(currentStmt_)].kind == StmtKind::With)
    out_.statements[static_cast<size_t>(currentStmt_)].items.push_back(std::move(item));
}

void Extractor::forStatement(TSNode n, const Frame &f, unsigned depth) {
  TSNode left = ts::field(n, ts::F::Left);
  loopBinding(left, ts::field(n, ts::F::Right), n, false, f);
  for (TSNode c : ts::namedChildren(n)) {
    if (ts::startByte(c) == ts::startByte(left) && ts::endByte(c) == ts::endByte(left))
      visitTarget(c, f, depth + 1, Access::Write);
    else
      visit(c, f, depth + 1);
  }
}

void Extractor::visitTarget(TSNode t, const Frame &f, unsigned depth, Access access) {
  if (depth > kMaxDepth) {
    tooDeep(t);
    return;
  }
  t = ts::unparen(t);
  switch (ts::kind(t)) {
  case K::Identifier:
    return; // binding a plain name is the Assignment fact itself
  case K::Attribute: {
    TSNode head = t;
    while (ts::kind(head) == K::Attribute)
      head = ts::field(head, ts::F::Object);
    if (ts::kind(head) == K::Identifier) {
      chain(t, f, depth, access);
      return;
    }
    // `self.layers[0].weight = w` mutates what self.layers holds. The attributes down to
    // the head are recorded here once; the head carries the write on.
    frameAttributes(t, f, t);
    visitTarget(head, f, depth + 1, access);
    return;
  }
  case K::Subscript: {
    TSNode value = ts::field(t, ts::F::Value);
    visitTarget(value, f, depth + 1, access);
    for (TSNode c : ts::namedChildren(t))
      if (!(ts::startByte(c) == ts::startByte(value) && ts::endByte(c) == ts::endByte(value)))
        visit(c, f, depth + 1);
    return;
  }
  case K::PatternList:
  case K::TuplePattern:
  case K::ListPattern:
  case K::ExpressionList:
  case K::Tuple:
  case K::List:
  case K::ListSplatPattern:
  case K::ListSplat:
    for (TSNode c : ts::namedChildren(t))
      visitTarget(c, f, depth + 1, access);
    return;
  case K::Call: // `f(x).attr = ...` bottoms out in a call: an ordinary read
  default:
    visit(t, f, depth + 1);
    return;
  }
}

void Extractor::branch(llvm::StringRef kind, TSNode test, LineRange body, const Frame &f,
                       std::vector<BranchArm> arms) {
  if (ts::isNull(test))
    return;
  ConditionContext ctx;
  ctx.scope = f.scope;
  ctx.selfName = f.selfName;
  auto inc = table_.classIncrements.find(f.classScope);
  ctx.classIncrements = inc == table_.classIncrements.end() ? nullptr : &inc->second;
  ctx.moduleIncrements = &table_.moduleIncrements;
  ctx.moduleLevel = f.function.empty();
  ConditionSummary s = analyzeCondition(test, ctx, resolver_, src_);
  Branch b;
  b.kind = kind.str();
  b.condition = ts::truncated(text(test));
  b.test = summarize(test, f);
  conditionNode(test, f, b.cond, 0);
  comparisons(test, f, b, out_.branches.size());
  b.tags = std::move(s.tags);
  b.calls = std::move(s.calls);
  b.names = std::move(s.names);
  b.function = f.function.str();
  b.lines = ts::lines(test);
  b.body = body;
  b.arms = std::move(arms);
  b.stmt = currentStmt_;
  if (currentStmt_ >= 0) {
    Stmt &st = out_.statements[static_cast<size_t>(currentStmt_)];
    if (st.branch < 0 && ((kind == "if" && st.kind == StmtKind::If) || (kind == "while" && st.kind == StmtKind::While)))
      st.branch = static_cast<int>(out_.branches.size());
  }
  out_.branches.push_back(std::move(b));
}

namespace {

/// The block of an if/elif/else arm: the `consequence`/`body` field, else the clause's block.
TSNode armBlock(TSNode clause, ts::F field) {
  TSNode block = ts::field(clause, field);
  if (!ts::isNull(block))
    return block;
  for (TSNode c : ts::namedChildren(clause))
    if (ts::kind(c) == K::Block)
      return c;
  return TSNode{};
}

BranchArm makeArm(llvm::StringRef kind, TSNode clause, TSNode test, TSNode block, unsigned lastLine) {
  BranchArm a;
  a.kind = kind.str();
  if (!ts::isNull(test))
    a.test = ts::lines(test);
  // The block's statements: comments before the first or after the last are not part of it.
  ts::Children stmts = ts::isNull(block) ? ts::Children{} : ts::namedChildren(block);
  if (!stmts.empty())
    a.body = LineRange{ts::firstLine(stmts.front()), ts::lastLine(stmts.back())};
  else // an empty block (error recovery): the clause's own lines
    a.body = LineRange{ts::firstLine(clause), lastLine};
  a.lines = LineRange{ts::firstLine(clause), stmts.empty() ? lastLine : a.body.end};
  return a;
}

} // namespace

void Extractor::ifStatement(TSNode n, const Frame &f, unsigned depth) {
  // The arms of the chain, in source order.
  std::vector<BranchArm> arms;
  std::vector<TSNode> elifs;
  {
    TSNode block = armBlock(n, ts::F::Consequence);
    unsigned end = ts::isNull(block) ? ts::firstLine(n) : ts::lastLine(block);
    arms.push_back(makeArm("if", n, ts::field(n, ts::F::Condition), block, end));
  }
  for (TSNode c : ts::namedChildren(n)) {
    const K k = ts::kind(c);
    if (k != K::ElifClause && k != K::ElseClause)
      continue;
    TSNode block = armBlock(c, k == K::ElifClause ? ts::F::Consequence : ts::F::Body);
    if (k == K::ElifClause) {
      elifs.push_back(c);
      arms.push_back(makeArm("elif", c, ts::field(c, ts::F::Condition), block, ts::lastLine(c)));
    } else {
      arms.push_back(makeArm("else", c, TSNode{}, block, ts::lastLine(c)));
    }
  }
  branch("if", ts::field(n, ts::F::Condition), ts::lines(n), f, arms);
  for (size_t i = 0; i < elifs.size(); ++i) {
    TSNode c = elifs[i];
    branch("elif", ts::field(c, ts::F::Condition), LineRange{ts::firstLine(c), ts::lastLine(n)}, f,
           std::vector<BranchArm>(arms.begin() + 1 + i, arms.end()));
  }
  visitChildren(n, f, depth);
}

void Extractor::returnStatement(TSNode n, const Frame &f, unsigned depth) {
  Return r;
  ts::Children kids = ts::namedChildren(n); // comments are not among them
  if (kids.empty())
    r.value.kind = ExprKind::None;
  else
    r.value = summarize(kids[0], f);
  r.function = f.function.str();
  r.lines = ts::lines(n);
  r.stmt = currentStmt_;
  if (currentStmt_ >= 0)
    out_.statements[static_cast<size_t>(currentStmt_)].ret = static_cast<int>(out_.returns.size());
  out_.returns.push_back(std::move(r));
  visitChildren(n, f, depth);
}

namespace {

/// What a handler body does: calls (resolved), raise, return; nested defs are not part
/// of what the handler does when it runs.
struct HandlerScan {
  std::vector<std::string> calls;
  bool raises = false;
  bool returns = false;
};

HandlerScan scanHandler(TSNode block, int scope, Resolver &resolver) {
  HandlerScan s;
  llvm::SmallVector<TSNode, 32> stack{block};
  size_t budget = 20000;
  while (!stack.empty() && budget-- > 0) {
    TSNode n = stack.pop_back_val();
    switch (ts::kind(n)) {
    case K::FunctionDefinition:
    case K::ClassDefinition:
    case K::DecoratedDefinition:
    case K::Lambda:
      continue;
    case K::RaiseStatement:
      s.raises = true;
      break;
    case K::ReturnStatement:
      s.returns = true;
      break;
    case K::Call: {
      std::string r = resolver.resolve(ts::field(n, ts::F::Function), scope).resolved;
      if (!llvm::is_contained(s.calls, r))
        s.calls.push_back(std::move(r));
      break;
    }
    default:
      break;
    }
    ts::Children kids = ts::namedChildren(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      stack.push_back(*it);
  }
  return s;
}

} // namespace

void Extractor::tryStatement(TSNode n, const Frame &f, unsigned depth) {
  TSNode body = ts::field(n, ts::F::Body);
  LineRange tryLines{ts::firstLine(n), ts::isNull(body) ? ts::firstLine(n) : ts::lastLine(body)};
  if (currentStmt_ >= 0)
    firstHandler_[currentStmt_] = static_cast<int>(out_.tryHandlers.size());
  out_.keywordStatements.push_back({"try", f.function.str(), tryLines});
  for (TSNode clause : ts::namedChildren(n)) {
    if (ts::kind(clause) != K::ExceptClause && ts::kind(clause) != K::ExceptGroupClause)
      continue;
    TryHandler h;
    TSNode block{};
    TSNode value = ts::field(clause, ts::F::Value);
    for (TSNode c : ts::namedChildren(clause)) {
      if (ts::kind(c) == K::Block)
        block = c;
      else if (ts::isNull(value))
        value = c; // `except*` and older grammars put the type positionally
    }
    TSNode types = ts::unparen(value);
    if (ts::kind(types) == K::AsPattern) {
      ts::Children parts = ts::namedChildren(types);
      types = parts.empty() ? TSNode{} : ts::unparen(parts[0]);
    }
    if (ts::kind(types) == K::Tuple) {
      for (TSNode t : ts::namedChildren(types))
        h.exceptionTypes.push_back(resolver_.resolve(t, f.scope).resolved);
    } else if (!ts::isNull(types)) {
      h.exceptionTypes.push_back(resolver_.resolve(types, f.scope).resolved);
    }
    if (!ts::isNull(block)) {
      HandlerScan s = scanHandler(block, f.scope, resolver_);
      h.handlerCalls = std::move(s.calls);
      h.reraises = s.raises;
      h.returns = s.returns;
    }
    h.function = f.function.str();
    h.tryLines = tryLines;
    h.handlerLines = ts::lines(clause);
    out_.tryHandlers.push_back(std::move(h));
  }
  visitChildren(n, f, depth);
}

} // namespace kbaudit::py
