#include "scope.h"

#include "imports.h"

#include <llvm/ADT/STLExtras.h>

#include <algorithm>

namespace kbaudit::py {
namespace {

using ts::K;

class Builder {
public:
  Builder(ScopeTable &t, llvm::StringRef src, llvm::function_ref<void(TSNode)> tooDeep)
      : t_(t), src_(src), tooDeep_(tooDeep) {}

  void run(TSNode root) {
    Scope module;
    module.kind = Scope::Kind::Module;
    module.node = root;
    t_.scopes.push_back(std::move(module));
    statements(root, 0, 0);
    // Bindings arrive in walk order, which is source order except that a def's own name
    // is bound before its body is walked; lookups binary-search on position.
    for (Scope &s : t_.scopes)
      for (auto &entry : s.bindings)
        std::stable_sort(entry.second.begin(), entry.second.end(),
                         [](const Binding &a, const Binding &b) { return a.pos < b.pos; });
  }

private:
  ScopeTable &t_;
  llvm::StringRef src_;
  llvm::function_ref<void(TSNode)> tooDeep_;

  llvm::StringRef text(TSNode n) const { return ts::text(n, src_); }

  /// Where a name assigned in `scope` lives: `global` declarations move it to the module.
  int bindingScope(llvm::StringRef name, int scope) const {
    return t_.scopes[scope].globals.contains(name) ? 0 : scope;
  }

  void bind(llvm::StringRef name, int scope, Binding b) {
    if (name.empty())
      return;
    int s = bindingScope(name, scope);
    t_.scopes[s].bindings[name].push_back(std::move(b));
  }

  void bindUnknown(TSNode target, int scope, uint32_t pos) {
    target = ts::unparen(target);
    switch (ts::kind(target)) {
    case K::Identifier: {
      Binding b;
      b.pos = pos;
      b.stmtStart = pos;
      b.scope = scope;
      bind(text(target), scope, std::move(b));
      break;
    }
    case K::PatternList:
    case K::TuplePattern:
    case K::ListPattern:
    case K::ExpressionList:
    case K::Tuple:
    case K::List:
    case K::ListSplatPattern:
    case K::AsPatternTarget:
      for (TSNode c : ts::namedChildren(target))
        bindUnknown(c, scope, pos);
      break;
    default:
      break;
    }
  }

  static bool isSequenceTarget(K k) {
    return k == K::PatternList || k == K::TuplePattern || k == K::ListPattern;
  }
  static bool isSequenceValue(K k) {
    return k == K::ExpressionList || k == K::Tuple || k == K::List;
  }

  void bindTarget(TSNode target, TSNode value, int scope, TSNode stmt, bool augmented, llvm::StringRef op) {
    target = ts::unparen(target);
    K tk = ts::kind(target);
    if (tk == K::Identifier) {
      Binding b;
      b.kind = augmented ? Binding::Kind::Augmented : Binding::Kind::Value;
      b.pos = ts::endByte(stmt);
      b.stmtStart = ts::startByte(stmt);
      b.value = value;
      b.scope = scope;
      b.op = op.str();
      bind(text(target), scope, std::move(b));
      return;
    }
    if (isSequenceTarget(tk) && !augmented) {
      ts::Children targets = ts::namedChildren(target);
      TSNode v = ts::unparen(value);
      if (isSequenceValue(ts::kind(v))) {
        ts::Children values = ts::namedChildren(v);
        bool splat = llvm::any_of(targets, [](TSNode n) { return ts::kind(n) == K::ListSplatPattern; }) ||
                     llvm::any_of(values, [](TSNode n) { return ts::kind(n) == K::ListSplat; });
        if (!splat && values.size() == targets.size()) {
          for (size_t i = 0; i < targets.size(); ++i)
            bindTarget(targets[i], values[i], scope, stmt, false, op);
          return;
        }
      }
      bindUnknown(target, scope, ts::endByte(stmt));
    }
  }

  llvm::StringRef firstParameter(TSNode def) const {
    ts::Children params = ts::namedChildren(ts::field(def, ts::F::Parameters));
    if (!params.empty() && ts::kind(params[0]) == K::Identifier)
      return text(params[0]);
    return {};
  }

  /// `self.n += 1`, `n += 1` (global), `self.n = self.n + 1`.
  void noteIncrement(TSNode target, int scope) {
    target = ts::unparen(target);
    const Scope &s = t_.scopes[scope];
    if (ts::kind(target) == K::Attribute) {
      TSNode obj = ts::field(target, ts::F::Object);
      if (s.classScope >= 0 && ts::kind(obj) == K::Identifier && !s.selfName.empty() &&
          text(obj) == s.selfName)
        t_.classIncrements[s.classScope].insert(text(ts::field(target, ts::F::AttributeF)));
      else if (s.kind == Scope::Kind::Function && s.parent == 0 && ts::kind(obj) == K::Identifier &&
               text(obj) == firstParameter(s.node))
        t_.firstParamIncrements[scope].insert(text(ts::field(target, ts::F::AttributeF)));
      return;
    }
    if (ts::kind(target) == K::Identifier) {
      llvm::StringRef name = text(target);
      if (s.kind == Scope::Kind::Module || s.globals.contains(name))
        t_.moduleIncrements.insert(name);
    }
  }

  void assignment(TSNode n, int scope, TSNode stmt) {
    if (ts::kind(n) == K::AugmentedAssignment) {
      TSNode left = ts::field(n, ts::F::Left);
      TSNode right = ts::field(n, ts::F::Right);
      llvm::StringRef op = ts::tokenType(ts::field(n, ts::F::Operator));
      op.consume_back("=");
      if (op == "+" || op == "-")
        noteIncrement(left, scope);
      bindTarget(left, right, scope, stmt, true, op);
      return;
    }
    // a = b = value: every target gets the innermost right-hand side.
    ts::Children targets;
    TSNode cur = n;
    unsigned guard = 0;
    while (ts::kind(cur) == K::Assignment && guard++ < 64) {
      targets.push_back(ts::field(cur, ts::F::Left));
      cur = ts::field(cur, ts::F::Right);
    }
    if (ts::isNull(cur))
      return; // annotation without value
    if (ts::kind(cur) == K::AugmentedAssignment)
      return;
    TSNode rhs = ts::unparen(cur);
    if (ts::kind(rhs) == K::BinaryOperator) {
      llvm::StringRef op = ts::tokenType(ts::field(rhs, ts::F::Operator));
      if ((op == "+" || op == "-") && targets.size() == 1 &&
          text(ts::unparen(ts::field(rhs, ts::F::Left))) == text(ts::unparen(targets[0])))
        noteIncrement(targets[0], scope);
    }
    for (TSNode target : targets)
      bindTarget(target, cur, scope, stmt, false, "");
  }

  void imports(TSNode n, int scope) {
    llvm::SmallVector<ImportedName, 4> names;
    listImports(n, src_, names);
    for (ImportedName &in : names) {
      if (in.bindsTo.empty())
        continue; // wildcard: the names it binds are unknown
      Binding b;
      b.kind = Binding::Kind::Import;
      b.pos = ts::endByte(n);
      b.stmtStart = ts::startByte(n);
      b.scope = scope;
      b.target = std::move(in.bindsTo);
      bind(in.local, scope, std::move(b));
    }
  }

  void definition(TSNode def, const ts::Children &decorators, int parent, unsigned depth) {
    bool isClass = ts::kind(def) == K::ClassDefinition;
    Scope s;
    s.kind = isClass ? Scope::Kind::Class : Scope::Kind::Function;
    s.parent = parent;
    s.node = def;
    s.name = text(ts::field(def, ts::F::Name)).str();
    const Scope &p = t_.scopes[parent];
    s.qualname = p.qualname.empty() ? s.name : p.qualname + "." + s.name;
    s.classScope = p.classScope;
    s.selfName = p.selfName;
    if (!isClass && p.kind == Scope::Kind::Class) {
      s.className = p.name;
      s.classScope = parent;
      s.selfName.clear();
      bool staticOrClass = false;
      for (TSNode d : decorators) {
        llvm::StringRef dt = text(d);
        if (dt.contains("staticmethod") || dt.contains("classmethod"))
          staticOrClass = true;
      }
      if (!staticOrClass) {
        ts::Children params = ts::namedChildren(ts::field(def, ts::F::Parameters));
        if (!params.empty() && ts::kind(params[0]) == K::Identifier)
          s.selfName = text(params[0]).str();
        else if (!params.empty() && ts::kind(params[0]) == K::TypedParameter) {
          ts::Children inner = ts::namedChildren(params[0]);
          if (!inner.empty() && ts::kind(inner[0]) == K::Identifier)
            s.selfName = text(inner[0]).str();
        }
      }
    }
    if (isClass)
      s.selfName.clear();

    // The def binds its name in the enclosing scope.
    Binding nameBinding;
    nameBinding.pos = ts::endByte(def);
    nameBinding.stmtStart = ts::startByte(def);
    nameBinding.scope = parent;
    bind(s.name, parent, std::move(nameBinding));

    int idx = static_cast<int>(t_.scopes.size());
    t_.scopeOf.emplace(ts::key(def), idx);
    t_.scopes.push_back(std::move(s));
    if (!decorators.empty())
      t_.decoratedDefs.push_back({def, decorators, parent});

    if (!isClass)
      parameters(ts::field(def, ts::F::Parameters), idx, ts::startByte(def));
    statements(ts::field(def, ts::F::Body), idx, depth + 1);
  }

  void parameters(TSNode params, int scope, uint32_t pos) {
    for (TSNode p : ts::namedChildren(params)) {
      TSNode name = p;
      switch (ts::kind(p)) {
      case K::DefaultParameter:
      case K::TypedDefaultParameter:
        name = ts::field(p, ts::F::Name);
        break;
      case K::TypedParameter:
      case K::ListSplatPattern:
      case K::DictionarySplatPattern: {
        ts::Children inner = ts::namedChildren(p);
        name = inner.empty() ? TSNode{} : inner[0];
        break;
      }
      default:
        break;
      }
      if (ts::kind(name) == K::TypedParameter) { // `*args: int`
        ts::Children inner = ts::namedChildren(name);
        name = inner.empty() ? TSNode{} : inner[0];
      }
      if (ts::kind(name) == K::Identifier) {
        Binding b;
        b.pos = pos;
        b.stmtStart = pos;
        b.scope = scope;
        b.parameter = true;
        bind(text(name), scope, std::move(b));
      } else if (!ts::isNull(name)) {
        bindUnknown(name, scope, pos);
      }
    }
  }

  void statements(TSNode n, int scope, unsigned depth) {
    if (ts::isNull(n))
      return;
    if (depth > kMaxDepth) {
      tooDeep_(n);
      return;
    }
    for (TSNode c : ts::namedChildren(n))
      statement(c, scope, depth);
  }

  void statement(TSNode c, int scope, unsigned depth) {
    switch (ts::kind(c)) {
    case K::ImportStatement:
    case K::ImportFromStatement:
    case K::FutureImportStatement:
      imports(c, scope);
      break;
    case K::ExpressionStatement:
      for (TSNode e : ts::namedChildren(c))
        if (ts::kind(e) == K::Assignment || ts::kind(e) == K::AugmentedAssignment)
          assignment(e, scope, c);
      break;
    case K::Assignment: // inside ERROR nodes the expression_statement may be missing
    case K::AugmentedAssignment:
      assignment(c, scope, c);
      break;
    case K::GlobalStatement:
      for (TSNode id : ts::namedChildren(c))
        t_.scopes[scope].globals.insert(text(id));
      break;
    case K::FunctionDefinition:
    case K::ClassDefinition:
      definition(c, {}, scope, depth);
      break;
    case K::DecoratedDefinition: {
      ts::Children decorators;
      for (TSNode d : ts::namedChildren(c))
        if (ts::kind(d) == K::Decorator)
          decorators.push_back(d);
      TSNode def = ts::field(c, ts::F::Definition);
      if (!ts::isNull(def))
        definition(def, decorators, scope, depth);
      break;
    }
    case K::ForStatement:
      bindUnknown(ts::field(c, ts::F::Left), scope, ts::startByte(c));
      statements(c, scope, depth + 1);
      break;
    case K::WithStatement:
      for (TSNode clause : ts::namedChildren(c)) {
        if (ts::kind(clause) != K::WithClause)
          continue;
        for (TSNode item : ts::namedChildren(clause)) {
          TSNode v = ts::field(item, ts::F::Value);
          if (ts::kind(v) == K::AsPattern)
            bindUnknown(ts::field(v, ts::F::Alias), scope, ts::startByte(c));
        }
      }
      statements(c, scope, depth + 1);
      break;
    case K::ExceptClause:
    case K::ExceptGroupClause: {
      TSNode v = ts::field(c, ts::F::Value);
      if (ts::kind(v) == K::AsPattern)
        bindUnknown(ts::field(v, ts::F::Alias), scope, ts::startByte(c));
      statements(c, scope, depth + 1);
      break;
    }
    case K::Block:
    case K::IfStatement:
    case K::ElifClause:
    case K::ElseClause:
    case K::WhileStatement:
    case K::TryStatement:
    case K::FinallyClause:
    case K::MatchStatement:
    case K::CaseClause:
    case K::Error:
      statements(c, scope, depth + 1);
      break;
    default:
      break;
    }
  }
};

} // namespace

const Binding *ScopeTable::lookup(llvm::StringRef name, int scope, uint32_t pos,
                                  llvm::function_ref<bool(const Binding &)> accept) const {
  bool own = true;
  unsigned guard = 0;
  for (int s = scope; s >= 0 && guard++ < 512; s = scopes[s].parent) {
    const Scope &sc = scopes[s];
    if (!own && sc.kind == Scope::Kind::Class)
      continue;
    auto it = sc.bindings.find(name);
    if (it != sc.bindings.end()) {
      const std::vector<Binding> &bs = it->second;
      size_t upto = bs.size();
      if (own) // only bindings that precede the use
        upto = static_cast<size_t>(
            std::upper_bound(bs.begin(), bs.end(), pos, [](uint32_t p, const Binding &b) { return p < b.pos; }) -
            bs.begin());
      for (size_t i = upto; i-- > 0;)
        if (accept(bs[i]))
          return &bs[i];
    }
    own = false;
  }
  return nullptr;
}

ScopeTable buildScopes(TSNode root, llvm::StringRef src, llvm::function_ref<void(TSNode)> tooDeep) {
  ScopeTable t;
  Builder(t, src, tooDeep).run(root);
  findDelegations(t, src);
  return t;
}

} // namespace kbaudit::py
