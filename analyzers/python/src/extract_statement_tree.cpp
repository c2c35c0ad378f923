// The program model's statements (PythonFacts::statements): the extractor's one walk records,
// as it enters each statement, block and clause, where the facts it makes belong. Rules that
// follow execution order (which stream is current when a call runs, which arm of a branch a
// call sits in, whether a return leaves a `with` block early) read this tree instead of
// comparing line ranges.

#include "extractor.h"

#include <algorithm>

namespace kbaudit::py {

using ts::K;

namespace {

/// The statement kind of a node, or nullopt for a node that is not a statement.
std::optional<StmtKind> statementKind(TSNode n) {
  switch (ts::kind(n)) {
  case K::ExpressionStatement: return StmtKind::Expression;
  case K::ReturnStatement: return StmtKind::Return;
  case K::RaiseStatement: return StmtKind::Raise;
  case K::DeleteStatement: return StmtKind::Delete;
  case K::AssertStatement: return StmtKind::Assert;
  case K::ImportStatement:
  case K::ImportFromStatement:
  case K::FutureImportStatement: return StmtKind::Import;
  case K::GlobalStatement:
  case K::NonlocalStatement: return StmtKind::Global;
  case K::IfStatement: return StmtKind::If;
  case K::WhileStatement: return StmtKind::While;
  case K::ForStatement: return StmtKind::For;
  case K::WithStatement: return StmtKind::With;
  case K::TryStatement: return StmtKind::Try;
  case K::MatchStatement: return StmtKind::Match;
  case K::FunctionDefinition: return StmtKind::Def;
  case K::DecoratedDefinition: {
    TSNode def = ts::field(n, ts::F::Definition);
    return ts::kind(def) == K::ClassDefinition ? StmtKind::Class : StmtKind::Def;
  }
  case K::ClassDefinition: return StmtKind::Class;
  case K::PassStatement: return StmtKind::Pass;
  case K::BreakStatement: return StmtKind::Break;
  case K::ContinueStatement: return StmtKind::Continue;
  default: break;
  }
  // Statements the kind table does not name (print/exec of Python 2, `type X = ...`).
  const std::string_view t = ts::tokenType(n);
  if (t.size() > 10 && t.ends_with("_statement"))
    return StmtKind::Other;
  return std::nullopt;
}

} // namespace

Extractor::StatementScope::StatementScope(Extractor &x, TSNode n, const Frame &f)
    : x_(x), savedStmt_(x.currentStmt_), savedRole_(x.pendingRole_), savedPending_(x.pendingSet_) {
  if (std::optional<StmtKind> k = statementKind(n)) {
    x.currentStmt_ = x.pushStatement(n, *k, f);
    x.pendingSet_ = false;
    return;
  }
  switch (ts::kind(n)) {
  case K::Block:
    if (x.currentStmt_ >= 0)
      x.openBlock(x.pendingSet_ ? x.pendingRole_ : StmtBlock::Role::Body);
    x.pendingSet_ = false;
    return;
  case K::ElifClause: x.pendingRole_ = StmtBlock::Role::Elif; break;
  case K::ElseClause: x.pendingRole_ = StmtBlock::Role::Else; break;
  case K::ExceptClause:
  case K::ExceptGroupClause: x.pendingRole_ = StmtBlock::Role::Except; break;
  case K::FinallyClause: x.pendingRole_ = StmtBlock::Role::Finally; break;
  case K::CaseClause: x.pendingRole_ = StmtBlock::Role::Case; break;
  default: return;
  }
  x.pendingSet_ = true;
}

Extractor::StatementScope::~StatementScope() {
  x_.currentStmt_ = savedStmt_;
  x_.pendingRole_ = savedRole_;
  x_.pendingSet_ = savedPending_;
}

int Extractor::pushStatement(TSNode n, StmtKind kind, const Frame &f) {
  const int id = static_cast<int>(out_.statements.size());
  Stmt s;
  s.kind = kind;
  s.parent = currentStmt_;
  s.function = f.function.str();
  s.lines = ts::lines(n);
  if (currentStmt_ < 0) {
    out_.module.push_back(id);
  } else {
    Stmt &p = out_.statements[static_cast<size_t>(currentStmt_)];
    if (p.blocks.empty())
      p.blocks.push_back(StmtBlock{});
    p.blocks.back().statements.push_back(id);
  }
  out_.statements.push_back(std::move(s));
  return id;
}

void Extractor::openBlock(StmtBlock::Role role) {
  if (currentStmt_ < 0)
    return;
  Stmt &s = out_.statements[static_cast<size_t>(currentStmt_)];
  StmtBlock b;
  b.role = role;
  if (s.kind == StmtKind::If) {
    if (role == StmtBlock::Role::Body)
      b.role = StmtBlock::Role::Then;
    b.arm = static_cast<int>(s.blocks.size());
  }
  if (role == StmtBlock::Role::Except) {
    auto it = firstHandler_.find(currentStmt_);
    const int before = static_cast<int>(std::count_if(s.blocks.begin(), s.blocks.end(), [](const StmtBlock &o) {
      return o.role == StmtBlock::Role::Except;
    }));
    if (it != firstHandler_.end())
      b.handler = it->second + before;
  }
  s.blocks.push_back(std::move(b));
}

void Extractor::ownCall(size_t index) {
  out_.calls[index].stmt = currentStmt_;
  if (currentStmt_ >= 0)
    out_.statements[static_cast<size_t>(currentStmt_)].calls.push_back(static_cast<int>(index));
}

void Extractor::ownAssignment(size_t index) {
  out_.assignments[index].stmt = currentStmt_;
  if (currentStmt_ >= 0)
    out_.statements[static_cast<size_t>(currentStmt_)].assignments.push_back(static_cast<int>(index));
}

void Extractor::orderStatementCalls() {
  // Arguments are evaluated before the call they are passed to, and a receiver's call before
  // the method called on its result: a call ends before any call that contains it.
  for (Stmt &s : out_.statements)
    std::stable_sort(s.calls.begin(), s.calls.end(), [&](int a, int b) {
      const auto &ba = callBytes_[static_cast<size_t>(a)], &bb = callBytes_[static_cast<size_t>(b)];
      return ba.second != bb.second ? ba.second < bb.second : ba.first > bb.first;
    });
}

void Extractor::linkReceiverCalls() {
  if (receiverCalls_.empty())
    return;
  llvm::DenseMap<std::pair<uint32_t, uint32_t>, int> byBytes;
  for (size_t i = 0; i < callBytes_.size(); ++i)
    byBytes.try_emplace(callBytes_[i], static_cast<int>(i));
  for (const ReceiverCall &r : receiverCalls_)
    if (auto it = byBytes.find({r.begin, r.end}); it != byBytes.end())
      out_.calls[r.call].receiverCall = it->second;
}

} // namespace kbaudit::py
