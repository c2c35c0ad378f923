#pragma once

// Pass 2: one walk over the tree that turns nodes into facts. Statement handlers live in
// extract_statements.cpp, expression handlers in extract_expressions.cpp.

#include "evaluator.h"
#include "expr_summary.h"
#include "resolver.h"
#include "scope.h"

#include "kbaudit/python/facts.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringSet.h>

namespace kbaudit::py {

class Extractor {
public:
  Extractor(llvm::StringRef src, const ScopeTable &table, Resolver &resolver, Evaluator &eval, PythonFacts &out);

  void run(TSNode root);

private:
  /// Where the walk is: the scope names resolve in and the def facts are attributed to.
  struct Frame {
    int scope = 0;
    llvm::StringRef function; ///< qualname of the enclosing def, "" outside defs
    llvm::StringRef selfName; ///< "self" in methods and closures inside them
    int classScope = -1;      ///< class of the enclosing method (CallCounter)
    TSNode docstring{};       ///< docstring node of the body being walked
  };
  enum class Access { Read, Write, ReadWrite };

  llvm::StringRef src_;
  const ScopeTable &table_;
  Resolver &resolver_;
  Evaluator &eval_;
  ExprSummarizer summarizer_;
  PythonFacts &out_;
  llvm::StringSet<> tritonKernels_;
  /// Comparisons enclosing the node being visited: IdentityCheck text quotes them.
  std::vector<TSNode> comparisons_;
  bool reportedTooDeep_ = false;
  /// Byte span of each out_.calls entry (same index): the calls inside a comparison's operand
  /// are found by span once the walk is over.
  std::vector<std::pair<uint32_t, uint32_t>> callBytes_;
  /// A comparison operand (out_.branches[branch].comparisons[comparison], left or right) whose
  /// calls are attached after the walk, when every call has been extracted.
  struct PendingOperand {
    size_t branch, comparison;
    bool right;
    uint32_t begin, end;
  };
  std::vector<PendingOperand> pendingOperands_;

  llvm::StringRef text(TSNode n) const { return ts::text(n, src_); }
  Expr summarize(TSNode n, const Frame &f) { return summarizer_.summarize(n, f.scope); }
  void findTritonKernels(TSNode root);
  void tooDeep(TSNode n);

  void visit(TSNode n, const Frame &f, unsigned depth);
  void visitChildren(TSNode n, const Frame &f, unsigned depth);

  // extract_statement_tree.cpp: the program model's statements (PythonFacts::statements).
  /// Entering a statement pushes it, entering a block opens one in the statement being walked,
  /// entering a clause (elif, else, except, finally, case) names the block it holds; leaving
  /// restores what was current. Facts made meanwhile belong to the current statement.
  class StatementScope {
  public:
    StatementScope(Extractor &x, TSNode n, const Frame &f);
    ~StatementScope();
    StatementScope(const StatementScope &) = delete;
    StatementScope &operator=(const StatementScope &) = delete;

  private:
    Extractor &x_;
    int savedStmt_;
    StmtBlock::Role savedRole_;
    bool savedPending_;
  };
  int pushStatement(TSNode n, StmtKind kind, const Frame &f);
  void openBlock(StmtBlock::Role role);
  /// out_.calls[index] / out_.assignments[index] are the current statement's own.
  void ownCall(size_t index);
  void ownAssignment(size_t index);
  void orderStatementCalls();
  int currentStmt_ = -1;
  StmtBlock::Role pendingRole_ = StmtBlock::Role::Body;
  bool pendingSet_ = false;
  /// A try statement's first handler in out_.tryHandlers (its except blocks follow in order).
  llvm::DenseMap<int, int> firstHandler_;
  /// A method called on the result of a call (`torch.cuda.current_stream().wait_stream(s)`):
  /// the call's index and the receiver call's byte span, linked once every call is made.
  struct ReceiverCall {
    size_t call;
    uint32_t begin, end;
  };
  std::vector<ReceiverCall> receiverCalls_;
  void linkReceiverCalls();
  // extract_condition_tree.cpp
  /// Appends the formula of test `n` to `out`; returns its root's index.
  int conditionNode(TSNode n, const Frame &f, std::vector<CondNode> &out, unsigned depth);

  // extract_statements.cpp
  void imports(TSNode n, const Frame &f);
  void definition(TSNode def, TSNode outer, const ts::Children &decorators, const Frame &f, unsigned depth);
  void functionDef(TSNode def, TSNode outer, std::vector<Decorator> decorators, const Frame &f, unsigned depth);
  // extract_delegation.cpp
  /// The def whose body `def`'s facts come from: `def` itself, or the module-level helper its
  /// body only delegates to (`return helper(self, x)`), followed through a short chain.
  TSNode inlinedBody(TSNode def) const;
  TSNode delegate(TSNode def) const;
  void classDef(TSNode def, TSNode outer, std::vector<Decorator> decorators, const Frame &f, unsigned depth);
  void parameters(TSNode params, const Frame &f, unsigned depth);
  void assignment(TSNode n, const Frame &f, unsigned depth);
  void augmented(TSNode n, const Frame &f, unsigned depth);
  void walrus(TSNode n, const Frame &f, unsigned depth);
  void withStatement(TSNode n, const Frame &f, unsigned depth);
  /// One `with` item: walks the context manager and records it on the With statement.
  void withItem(TSNode resource, TSNode target, const Frame &f, unsigned depth);
  void forStatement(TSNode n, const Frame &f, unsigned depth);
  // The value is taken by value: the one Assignment it ends in moves it there (a summary holds
  // strings and lists; a copy per target is made only where there are several targets).
  void emitTargets(TSNode target, TSNode value, Expr valueExpr, llvm::StringRef op, TSNode stmt, const Frame &f);
  void emitAssignment(TSNode target, Expr value, llvm::StringRef op, TSNode stmt, const Frame &f);
  void visitTarget(TSNode t, const Frame &f, unsigned depth, Access access);
  void ifStatement(TSNode n, const Frame &f, unsigned depth);
  void branch(llvm::StringRef kind, TSNode test, LineRange body, const Frame &f,
              std::vector<BranchArm> arms = {});
  // extract_comparisons.cpp
  /// Fills b.comparisons from the test node; `branchIndex` is where `b` will sit in out_.branches.
  void comparisons(TSNode test, const Frame &f, Branch &b, size_t branchIndex);
  void attachOperandCalls();
  void returnStatement(TSNode n, const Frame &f, unsigned depth);
  void tryStatement(TSNode n, const Frame &f, unsigned depth);
  // extract_type_statement.cpp
  void typeStatement(TSNode n, const Frame &f);
  static TSNode docstringOf(TSNode block);

  // extract_loops.cpp
  void loopBinding(TSNode left, TSNode right, TSNode whole, bool comprehension, const Frame &f);
  void comprehensionLoops(TSNode n, const Frame &f);

  // extract_expressions.cpp
  void call(TSNode n, const Frame &f, unsigned depth);
  bool isLaunch(TSNode kernel, TSNode index) const;
  void setattrCall(TSNode n, const Call &c, const Frame &f);
  /// `mutated`: the object a mutating method is called on (`obj` of `obj.update(...)`), if any.
  void chain(TSNode n, const Frame &f, unsigned depth, Access access, TSNode mutated = TSNode{});
  void comparison(TSNode n, const Frame &f, unsigned depth);
  void stringNode(TSNode n, const Frame &f, unsigned depth);
  void maybeStringConstant(TSNode n, const Frame &f);
  void selfAccess(llvm::StringRef attr, Access access, TSNode at, const Frame &f);
  void identity(llvm::StringRef kind, TSNode at, const Frame &f);

  // extract_frames.cpp
  /// FrameAttribute facts for the attribute nodes of the chain `top` (down to its first
  /// non-attribute node); `written` is the node being stored into, if any.
  void frameAttributes(TSNode top, const Frame &f, TSNode written);
};

/// A parameter's name as written: "x", "*args", "**kwargs"; "" for `*` and `/` markers.
std::string parameterName(TSNode p, llvm::StringRef src);

/// Drops NameRefs that repeat on a line or are a dotted prefix of another on the same line.
void dedupeNameRefs(std::vector<NameRef> &refs);

} // namespace kbaudit::py
