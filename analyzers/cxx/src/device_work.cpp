#include "device_work.h"

// GCC flags a null `this` inside RecursiveASTVisitor::TraverseCXXRecordHelper (Clang 14
// headers, LazyOffsetPtr::get); the path needs an external AST source and is not taken.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wnonnull"
#endif

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/raw_ostream.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::cxx::collect {

using namespace clang;

namespace {

/// A type whose values are data rather than indices: floating point, vectors, classes
/// (`__half`, `float4`), complex, or a dependent type in a template as written.
bool isValueType(QualType t) {
  if (t.isNull())
    return false;
  t = t.getNonReferenceType();
  if (t->isDependentType())
    return true;
  const QualType c = t.getCanonicalType();
  if (c->isPointerType() || c->isIntegralOrEnumerationType() || c->isBooleanType())
    return false;
  return c->isRealFloatingType() || c->isVectorType() || c->isRecordType() || c->isAnyComplexType();
}

std::string calleeName(const CallExpr &call) {
  if (const FunctionDecl *fd = call.getDirectCallee())
    return fd->getDeclName().isIdentifier() ? fd->getName().str() : fd->getNameAsString();
  const Expr *callee = call.getCallee() ? call.getCallee()->IgnoreParenImpCasts() : nullptr;
  if (!callee)
    return "";
  if (const auto *u = dyn_cast<UnresolvedLookupExpr>(callee))
    return u->getName().getAsString();
  if (const auto *m = dyn_cast<UnresolvedMemberExpr>(callee))
    return m->getMemberName().getAsString();
  if (const auto *m = dyn_cast<CXXDependentScopeMemberExpr>(callee))
    return m->getMember().getAsString();
  if (const auto *m = dyn_cast<MemberExpr>(callee))
    return m->getMemberDecl()->getNameAsString();
  if (const auto *r = dyn_cast<DeclRefExpr>(callee))
    return r->getDecl()->getNameAsString();
  return "";
}

bool startsWith(const std::string &s, llvm::StringRef prefix) { return llvm::StringRef(s).startswith(prefix); }

bool isAtomic(const std::string &n) {
  return startsWith(n, "atomic") || startsWith(n, "__atomic") || startsWith(n, "fetch_");
}
bool isBarrier(const std::string &n) {
  return startsWith(n, "__syncthreads") || n == "__syncwarp" || n == "sync" || n == "__barrier_sync" ||
         n == "barrier_sync";
}
bool isShuffle(const std::string &n) {
  return startsWith(n, "__shfl") || startsWith(n, "__reduce_") || startsWith(n, "shfl") || n == "reduce";
}
bool isFma(const std::string &n) {
  return n == "fma" || n == "fmaf" || startsWith(n, "__fmaf") || startsWith(n, "__fma_") || startsWith(n, "__hfma");
}
/// Calls that move or index data without computing on it.
bool isDataMovement(const std::string &n) {
  return startsWith(n, "__fetch_builtin") || startsWith(n, "__ld") || startsWith(n, "__st") ||
         startsWith(n, "__sync") || n == "memcpy" || n == "min" || n == "max" || startsWith(n, "__cvta") ||
         startsWith(n, "operator=") || startsWith(n, "operator[]") || startsWith(n, "operator->") ||
         startsWith(n, "operator()") || isAtomic(n) || isShuffle(n) || isBarrier(n);
}

bool isArithmeticOperator(OverloadedOperatorKind k) {
  switch (k) {
  case OO_Plus: case OO_Minus: case OO_Star: case OO_Slash: case OO_PlusEqual: case OO_MinusEqual:
  case OO_StarEqual: case OO_SlashEqual: case OO_Less: case OO_Greater: case OO_LessEqual:
  case OO_GreaterEqual:
    return true;
  default:
    return false;
  }
}

bool isUpdateOperator(OverloadedOperatorKind k) {
  return k == OO_Equal || k == OO_PlusEqual || k == OO_MinusEqual || k == OO_StarEqual || k == OO_SlashEqual;
}

struct Loop {
  std::set<const ValueDecl *> induction; ///< variables of the increment / condition
  std::set<const ValueDecl *> declared;  ///< variables declared inside the loop
};

class WorkVisitor : public RecursiveASTVisitor<WorkVisitor> {
  using Base = RecursiveASTVisitor<WorkVisitor>;

public:
  explicit WorkVisitor(ASTContext &ctx) : ctx_(ctx), policy_(ctx.getLangOpts()) {}

  DeviceWork work;

  bool TraverseForStmt(ForStmt *s) {
    Loop l;
    refsIn(s->getInc(), l.induction);
    return traverseLoop(s, std::move(l));
  }
  bool TraverseWhileStmt(WhileStmt *s) {
    Loop l;
    refsIn(s->getCond(), l.induction);
    return traverseLoop(s, std::move(l));
  }
  bool TraverseDoStmt(DoStmt *s) {
    Loop l;
    refsIn(s->getCond(), l.induction);
    return traverseLoop(s, std::move(l));
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *s) {
    Loop l;
    if (s->getLoopVariable())
      l.induction.insert(s->getLoopVariable());
    loops_.push_back(std::move(l));
    const bool r = Base::TraverseCXXForRangeStmt(s);
    loops_.pop_back();
    return r;
  }

  bool VisitVarDecl(VarDecl *v) {
    for (Loop &l : loops_)
      l.declared.insert(v);
    if (v->hasAttr<CUDASharedAttr>())
      work.sharedMemory = true;
    if (v->isInvalidDecl())
      work.bodyErrors = true;
    return true;
  }

  bool VisitExpr(Expr *e) {
    if (e->containsErrors() || isa<RecoveryExpr>(e))
      work.bodyErrors = true;
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->getOpcode() == UO_Minus && isValueType(u->getType()))
      work.compute = true;
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *b) {
    const BinaryOperatorKind op = b->getOpcode();
    const bool arithmetic = b->isMultiplicativeOp() || b->isAdditiveOp() || b->isComparisonOp() ||
                            (b->isCompoundAssignmentOp() && op != BO_ShlAssign && op != BO_ShrAssign &&
                             op != BO_AndAssign && op != BO_OrAssign && op != BO_XorAssign);
    if (arithmetic && (isValueType(b->getLHS()->getType()) || isValueType(b->getRHS()->getType())))
      work.compute = true;
    if (b->isAssignmentOp())
      update(b->getLHS(), b->getRHS(), b->isCompoundAssignmentOp());
    return true;
  }

  bool VisitCallExpr(CallExpr *c) {
    const std::string name = calleeName(*c);
    if (isAtomic(name))
      work.atomics = true;
    if (isBarrier(name))
      work.barrier = true;
    if (isShuffle(name))
      work.shuffle = true;
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(c)) {
      const OverloadedOperatorKind k = op->getOperator();
      if (isArithmeticOperator(k) && op->getNumArgs() >= 1 && isValueType(op->getArg(0)->getType()))
        work.compute = true;
      if (isUpdateOperator(k) && op->getNumArgs() == 2)
        update(op->getArg(0), op->getArg(1), k != OO_Equal);
      return true;
    }
    if (name.empty() || isDataMovement(name) || isUserDefined(*c))
      return true;
    bool value = isValueType(c->getType());
    for (const Expr *a : c->arguments())
      value = value || isValueType(a->getType());
    if (value)
      work.compute = true;
    return true;
  }

private:
  template <class S> bool traverseLoop(S *s, Loop l) {
    loops_.push_back(std::move(l));
    const bool r = traverseParts(s);
    loops_.pop_back();
    return r;
  }
  bool traverseParts(ForStmt *s) {
    return TraverseStmt(s->getInit()) && TraverseStmt(s->getCond()) && TraverseStmt(s->getBody()) &&
           TraverseStmt(s->getInc());
  }
  bool traverseParts(WhileStmt *s) {
    if (VarDecl *v = s->getConditionVariable())
      TraverseDecl(v);
    return TraverseStmt(s->getCond()) && TraverseStmt(s->getBody());
  }
  bool traverseParts(DoStmt *s) { return TraverseStmt(s->getBody()) && TraverseStmt(s->getCond()); }

  /// A function written in the solution (its own summary covers it through the call graph).
  bool isUserDefined(const CallExpr &c) const {
    const FunctionDecl *fd = c.getDirectCallee();
    if (!fd)
      return false;
    const SourceManager &sm = ctx_.getSourceManager();
    return fd->getBuiltinID() == 0 && sm.getFileID(sm.getFileLoc(fd->getLocation())) == sm.getMainFileID();
  }

  static void refsIn(const Stmt *s, std::set<const ValueDecl *> &out) {
    if (!s)
      return;
    if (const auto *r = dyn_cast<DeclRefExpr>(s))
      out.insert(r->getDecl());
    for (const Stmt *child : s->children())
      refsIn(child, out);
  }

  std::string text(const Stmt *s) const {
    std::string out;
    llvm::raw_string_ostream os(out);
    s->printPretty(os, nullptr, policy_);
    return os.str();
  }

  static bool mentions(const Stmt *s, const ValueDecl *d) {
    if (!s)
      return false;
    if (const auto *r = dyn_cast<DeclRefExpr>(s); r && r->getDecl() == d)
      return true;
    return llvm::any_of(s->children(), [&](const Stmt *c) { return mentions(c, d); });
  }

  bool mentionsText(const Stmt *s, const std::string &t) const {
    if (!s)
      return false;
    if ((isa<ArraySubscriptExpr>(s) || isa<MemberExpr>(s) || isa<CXXOperatorCallExpr>(s)) && text(s) == t)
      return true;
    return llvm::any_of(s->children(), [&](const Stmt *c) { return mentionsText(c, t); });
  }

  /// `lhs (op)= rhs` inside a loop: an accumulation when lhs is a value declared outside
  /// the innermost loop (or an element of one at an index that does not move with it).
  void update(const Expr *lhs, const Expr *rhs, bool compound) {
    if (loops_.empty() || !lhs || !rhs)
      return;
    const Loop &loop = loops_.back();
    const Expr *target = lhs->IgnoreParenImpCasts();
    if (!isValueType(target->getType()))
      return;
    const Expr *root = target;
    std::vector<const Expr *> indices;
    for (;;) {
      root = root->IgnoreParenImpCasts();
      if (const auto *s = dyn_cast<ArraySubscriptExpr>(root)) {
        indices.push_back(s->getIdx());
        root = s->getBase();
      } else if (const auto *m = dyn_cast<MemberExpr>(root)) {
        root = m->getBase();
      } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(root);
                 op && op->getOperator() == OO_Subscript && op->getNumArgs() == 2) {
        indices.push_back(op->getArg(1));
        root = op->getArg(0);
      } else {
        break;
      }
    }
    const auto *ref = dyn_cast<DeclRefExpr>(root);
    if (!ref || loop.declared.count(ref->getDecl()))
      return;
    for (const Expr *idx : indices) {
      std::set<const ValueDecl *> used;
      refsIn(idx, used);
      for (const ValueDecl *d : used)
        if (loop.induction.count(d) || loop.declared.count(d))
          return; // the element moves with the loop: element-wise
    }
    if (!compound) {
      const bool fromItself = indices.empty() ? mentions(rhs, ref->getDecl()) : mentionsText(rhs, text(target));
      if (!fromItself)
        return;
    }
    work.loopAccumulate = true;
    if (hasReadProduct(rhs))
      work.loopProduct = true;
  }

  /// The index text of the first memory read in `e` (through locals initialised from one).
  std::optional<std::string> readOf(const Expr *e, int depth = 0) const {
    if (!e || depth > 3)
      return std::nullopt;
    e = e->IgnoreParenImpCasts();
    if (const auto *r = dyn_cast<DeclRefExpr>(e)) {
      if (const auto *v = dyn_cast<VarDecl>(r->getDecl()); v && v->hasLocalStorage() && !isa<ParmVarDecl>(v))
        return readOf(v->getInit(), depth + 1);
      return std::nullopt;
    }
    if (isa<ArraySubscriptExpr>(e) || (isa<UnaryOperator>(e) && cast<UnaryOperator>(e)->getOpcode() == UO_Deref)) {
      std::string idx;
      const Expr *cur = e;
      while (const auto *s = dyn_cast<ArraySubscriptExpr>(cur->IgnoreParenImpCasts())) {
        idx = text(s->getIdx()) + (idx.empty() ? "" : "," + idx);
        cur = s->getBase();
      }
      if (const auto *u = dyn_cast<UnaryOperator>(e->IgnoreParenImpCasts()))
        idx = text(u->getSubExpr());
      return idx;
    }
    for (const Stmt *c : e->children())
      if (const auto *ce = dyn_cast_or_null<Expr>(c))
        if (auto r = readOf(ce, depth))
          return r;
    return std::nullopt;
  }

  bool productOfReads(const Expr *a, const Expr *b) const {
    const auto ra = readOf(a), rb = readOf(b);
    return ra && rb && *ra != *rb;
  }

  bool hasReadProduct(const Stmt *s) const {
    if (!s)
      return false;
    if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Mul && productOfReads(b->getLHS(), b->getRHS()))
      return true;
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s);
        op && op->getOperator() == OO_Star && op->getNumArgs() == 2 && productOfReads(op->getArg(0), op->getArg(1)))
      return true;
    if (const auto *c = dyn_cast<CallExpr>(s); c && !isa<CXXOperatorCallExpr>(s) && c->getNumArgs() >= 2 &&
                                               isFma(calleeName(*c)) && productOfReads(c->getArg(0), c->getArg(1)))
      return true;
    return llvm::any_of(s->children(), [&](const Stmt *c) { return hasReadProduct(c); });
  }

  ASTContext &ctx_;
  PrintingPolicy policy_;
  std::vector<Loop> loops_;
};

} // namespace

DeviceWork summarizeDeviceBody(const FunctionDecl &fd, ASTContext &ctx) {
  WorkVisitor v(ctx);
  v.work.analyzed = true;
  v.work.bodyErrors = fd.isInvalidDecl();
  if (Stmt *body = fd.getBody())
    v.TraverseStmt(body);
  return v.work;
}

} // namespace kbaudit::cxx::collect
