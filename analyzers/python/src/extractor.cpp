#include "extractor.h"

#include "decorator_calls.h"
#include "parse.h"

#include <algorithm>
#include <map>

namespace kbaudit::py {

using ts::K;

Extractor::Extractor(llvm::StringRef src, const ScopeTable &table, Resolver &resolver, Evaluator &eval,
                     PythonFacts &out)
    : src_(src), table_(table), resolver_(resolver), eval_(eval), summarizer_(eval, resolver, src), out_(out) {}

void Extractor::run(TSNode root) {
  findTritonKernels(root);
  Frame module;
  module.docstring = docstringOf(root);
  visitChildren(root, module, 0);
  attachOperandCalls();
  orderStatementCalls();
  linkReceiverCalls();
  dedupeNameRefs(out_.nameRefs);
}

void Extractor::findTritonKernels(TSNode root) {
  for (const DecoratedDef &d : table_.decoratedDefs) {
    for (TSNode dec : d.decorators) {
      ts::Children kids = ts::namedChildren(dec);
      if (kids.empty())
        continue;
      TSNode e = ts::unparen(kids[0]);
      if (ts::kind(e) == K::Call)
        e = ts::field(e, ts::F::Function);
      if (jitDecorator(resolver_.resolve(e, d.scope).resolved))
        tritonKernels_.insert(text(ts::field(d.def, ts::F::Name)));
    }
  }
  // A decorator applied by a call binds the kernel to a name of its own: `k = triton.jit(_k)`,
  // `k = triton.autotune(configs, key)(triton.jit(_k))`. Launches go through that name
  // (`k[1,](...)`), so it is a kernel's name as much as the def's (decorator_calls.cpp gives the
  // def the decorator).
  for (TSNode stmt : ts::namedChildren(root)) {
    if (ts::kind(stmt) != K::ExpressionStatement)
      continue;
    ts::Children kids = ts::namedChildren(stmt);
    if (kids.empty() || ts::kind(kids[0]) != K::Assignment)
      continue;
    TSNode target = ts::field(kids[0], ts::F::Left), value = ts::unparen(ts::field(kids[0], ts::F::Right));
    if (ts::kind(target) != K::Identifier)
      continue;
    // The outermost call's callee, peeled through calls of calls (`autotune(...)(jit(f))`); a
    // callee that is itself a call may resolve whole (`getattr(triton, "jit")`).
    for (TSNode callee = value; ts::kind(callee) == K::Call;) {
      callee = ts::unparen(ts::field(callee, ts::F::Function));
      if (jitDecorator(resolver_.resolve(callee, 0).resolved)) {
        tritonKernels_.insert(text(target));
        break;
      }
    }
  }
}

void Extractor::tooDeep(TSNode n) {
  if (reportedTooDeep_)
    return;
  reportedTooDeep_ = true;
  out_.diagnostics.push_back(nestingTooDeep(n, kMaxDepth, "expressions"));
}

void Extractor::visitChildren(TSNode n, const Frame &f, unsigned depth) {
  for (TSNode c : ts::namedChildren(n))
    visit(c, f, depth + 1);
}

void Extractor::visit(TSNode n, const Frame &f, unsigned depth) {
  if (ts::isNull(n))
    return;
  if (depth > kMaxDepth) {
    tooDeep(n);
    return;
  }
  const StatementScope statement(*this, n, f);
  switch (ts::kind(n)) {
  case K::ImportStatement:
  case K::ImportFromStatement:
  case K::FutureImportStatement:
    imports(n, f);
    return;
  case K::DecoratedDefinition: {
    ts::Children decorators;
    for (TSNode d : ts::namedChildren(n))
      if (ts::kind(d) == K::Decorator) {
        decorators.push_back(d);
        visitChildren(d, f, depth); // decorator expressions run in the enclosing scope
      }
    TSNode def = ts::field(n, ts::F::Definition);
    if (!ts::isNull(def))
      definition(def, n, decorators, f, depth + 1);
    return;
  }
  case K::FunctionDefinition:
  case K::ClassDefinition:
    definition(n, n, {}, f, depth + 1);
    return;
  case K::Assignment:
    assignment(n, f, depth);
    return;
  case K::AugmentedAssignment:
    augmented(n, f, depth);
    return;
  case K::NamedExpression:
    walrus(n, f, depth);
    return;
  case K::Call:
    call(n, f, depth);
    return;
  case K::Identifier:
  case K::Attribute:
    chain(n, f, depth, Access::Read);
    return;
  case K::ComparisonOperator:
    comparison(n, f, depth);
    return;
  case K::IfStatement:
    ifStatement(n, f, depth);
    return;
  case K::WhileStatement:
    branch("while", ts::field(n, ts::F::Condition), ts::lines(n), f);
    visitChildren(n, f, depth);
    return;
  case K::AssertStatement: {
    ts::Children kids = ts::namedChildren(n);
    if (!kids.empty())
      branch("assert", kids[0], ts::lines(n), f);
    visitChildren(n, f, depth);
    return;
  }
  case K::MatchStatement:
    branch("match", ts::field(n, ts::F::Subject), ts::lines(n), f);
    visitChildren(n, f, depth);
    return;
  case K::ConditionalExpression: {
    ts::Children kids = ts::namedChildren(n); // body, test, orelse
    if (kids.size() >= 2)
      branch("conditional", kids[1], ts::lines(n), f);
    visitChildren(n, f, depth);
    return;
  }
  case K::TryStatement:
    tryStatement(n, f, depth);
    return;
  case K::ListComprehension:
  case K::SetComprehension:
  case K::DictionaryComprehension:
  case K::GeneratorExpression:
    comprehensionLoops(n, f);
    visitChildren(n, f, depth);
    return;
  case K::ReturnStatement:
    returnStatement(n, f, depth);
    return;
  case K::RaiseStatement:
    out_.raises.push_back(Raise{f.function.str(), ts::lines(n)});
    visitChildren(n, f, depth);
    return;
  case K::WithStatement:
    withStatement(n, f, depth);
    return;
  case K::ForStatement:
    forStatement(n, f, depth);
    return;
  case K::String:
  case K::ConcatenatedString:
    stringNode(n, f, depth);
    return;
  case K::BinaryOperator: {
    // Long left-associative chains are walked iteratively (see Evaluator). Only the top
    // of the chain can be a string constant: its folding covers the nodes below, and
    // asking each of them again would be quadratic in the chain's length.
    maybeStringConstant(n, f);
    llvm::SmallVector<TSNode, 16> rights;
    TSNode cur = n;
    while (ts::kind(cur) == K::BinaryOperator) {
      if (text(ts::field(cur, ts::F::Operator)) == "@")
        out_.operators.push_back(OperatorUse{"@", ts::truncated(text(cur)), f.function.str(), ts::lines(cur)});
      rights.push_back(ts::field(cur, ts::F::Right));
      cur = ts::field(cur, ts::F::Left);
    }
    visit(cur, f, depth + 1);
    for (auto it = rights.rbegin(); it != rights.rend(); ++it)
      visit(*it, f, depth + 1);
    return;
  }
  case K::KeywordArgument:
    visit(ts::field(n, ts::F::Value), f, depth + 1);
    return;
  case K::Parameters:
  case K::LambdaParameters:
    parameters(n, f, depth);
    return;
  case K::Lambda:
    parameters(ts::field(n, ts::F::Parameters), f, depth);
    visit(ts::field(n, ts::F::Body), f, depth + 1);
    return;
  case K::GlobalStatement:
  case K::NonlocalStatement:
  case K::Comment:
  case K::DottedName:
  case K::ImportPrefix:
  case K::RelativeImport:
  case K::WildcardImport:
  case K::StringStart:
  case K::StringContent:
  case K::StringEnd:
  case K::Integer:
  case K::Float:
  case K::True:
  case K::False:
  case K::None:
  case K::Ellipsis:
    return;
  default:
    if (ts::tokenType(n) == "type_alias_statement")
      typeStatement(n, f);
    else if (ts::tokenType(n) == "pass_statement")
      out_.keywordStatements.push_back({"pass", f.function.str(), ts::lines(n)});
    visitChildren(n, f, depth);
    return;
  }
}

void dedupeNameRefs(std::vector<NameRef> &refs) {
  auto isPrefix = [](llvm::StringRef shorter, llvm::StringRef longer) {
    return longer.size() > shorter.size() && longer.startswith(shorter) && longer[shorter.size()] == '.';
  };
  std::map<unsigned, std::vector<size_t>> byLine;
  for (size_t i = 0; i < refs.size(); ++i)
    byLine[refs[i].lines.begin].push_back(i);
  std::vector<bool> drop(refs.size(), false);
  for (auto &entry : byLine) {
    const std::vector<size_t> &idx = entry.second;
    for (size_t a = 0; a < idx.size(); ++a) {
      const NameRef &ra = refs[idx[a]];
      for (size_t b = 0; b < idx.size() && !drop[idx[a]]; ++b) {
        if (a == b || drop[idx[b]])
          continue;
        const NameRef &rb = refs[idx[b]];
        if ((rb.resolved == ra.resolved && b < a) || isPrefix(ra.resolved, rb.resolved))
          drop[idx[a]] = true;
      }
    }
  }
  size_t w = 0;
  for (size_t i = 0; i < refs.size(); ++i)
    if (!drop[i]) {
      if (w != i)
        refs[w] = std::move(refs[i]);
      ++w;
    }
  refs.resize(w);
}

} // namespace kbaudit::py
