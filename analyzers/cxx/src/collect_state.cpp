#include "collector_impl.h"

#include "names.h"
#include "ptx.h"

#include <llvm/ADT/SmallVector.h>

#include <functional>

namespace kbaudit::cxx::collect {

// ---------------------------------------------------------------------------------------
// Numeric types

std::optional<std::string> Collector::numericTypeName(QualType t) {
  // Walk the sugar: `half` (a typedef) and `__half` (the record) both name fp16, and
  // `using scalar_t = at::Half` resolves through the alias.
  for (int guard = 0; guard < 16 && !t.isNull(); ++guard) {
    const Type *ty = t.getTypePtr();
    const NamedDecl *named = nullptr;
    if (const auto *td = dyn_cast<TypedefType>(ty))
      named = td->getDecl();
    else if (const auto *rt = dyn_cast<RecordType>(ty))
      named = rt->getDecl();
    else if (const auto *tst = dyn_cast<TemplateSpecializationType>(ty))
      named = tst->getTemplateName().getAsTemplateDecl();
    if (named) {
      const std::string q = qualifiedName(*named);
      if (names::numericTypeOfName(q))
        return q;
    }
    const QualType next = t.getSingleStepDesugaredType(ctx_);
    if (next == t)
      break;
    t = next;
  }
  return std::nullopt;
}

std::optional<NumericType> Collector::numericTypeOf(QualType t) {
  if (auto name = numericTypeName(t))
    return names::numericTypeOfName(*name);
  return std::nullopt;
}

void Collector::addNumeric(NumericType t, NumericUseKind kind, std::string spelling,
                           ConversionDirection dir, const Context &where, SourceRange range) {
  out_.numericTypes.push_back(NumericUse{t, kind, std::move(spelling), dir, where.function,
                                         where.inDevice, -1, linesOf(range)});
}

void Collector::numericTypeUses(QualType t, NumericUseKind direct, const Context &where,
                                SourceRange range, int depth) {
  if (t.isNull() || depth > 2)
    return;
  // Pointers, references and arrays of the type use it all the same.
  for (int guard = 0; guard < 8; ++guard) {
    if (const auto *ref = t->getAs<ReferenceType>())
      t = ref->getPointeeType();
    else if (const auto *ptr = t->getAs<PointerType>())
      t = ptr->getPointeeType();
    else if (const ArrayType *arr = t->getAsArrayTypeUnsafe())
      t = arr->getElementType();
    else
      break;
  }
  if (t->isDependentType() && !t->getAs<TemplateSpecializationType>())
    return;
  if (auto name = numericTypeName(t)) {
    const auto type = names::numericTypeOfName(*name);
    addNumeric(*type, names::isPrecisionTag(*name) ? NumericUseKind::Precision : direct, *name,
               ConversionDirection::None, where, range);
    return;
  }
  // Template arguments: wmma::fragment<matrix_a, 16, 16, 16, half, row_major>,
  // cutlass::gemm::device::Gemm<cutlass::half_t, ...>, std::vector<at::Half>.
  llvm::ArrayRef<TemplateArgument> args;
  if (const auto *tst = t->getAs<TemplateSpecializationType>())
    args = tst->template_arguments();
  else if (const auto *spec =
               dyn_cast_or_null<ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl()))
    args = spec->getTemplateArgs().asArray();
  for (const TemplateArgument &arg : args)
    if (arg.getKind() == TemplateArgument::Type)
      numericTypeUses(arg.getAsType(), NumericUseKind::TemplateArgument, where, range, depth + 1);
}

void Collector::onAsm(const GCCAsmStmt &s) {
  if (!mainOffset(s.getAsmLoc()))
    return;
  const Context where = contextOf(s);
  const int statement = asmStatements_++;
  for (ptx::Instruction &ins : ptx::split(s.getAsmString()->getString())) {
    PtxInstruction p;
    p.text = std::move(ins.text);
    p.opcode = std::move(ins.opcode);
    p.modifiers = std::move(ins.modifiers);
    p.types = std::move(ins.types);
    p.operands = std::move(ins.operands);
    p.guard = std::move(ins.guard);
    p.statement = statement;
    p.isVolatile = s.isVolatile();
    p.function = where.function;
    p.inDevice = where.inDevice;
    p.lines = linesOf(s.getSourceRange());
    out_.ptx.push_back(std::move(p));
  }
}

/// CUTLASS and CuTe class templates a declaration instantiates (`using Gemm =
/// cutlass::gemm::device::GemmUniversal<...>`, `cute::TiledMMA<...> mma`): the library
/// the authored code is built from.
void Collector::templateUse(QualType t, const Context &where, SourceRange range) {
  if (t.isNull())
    return;
  while (const auto *ptr = t->getAs<PointerType>())
    t = ptr->getPointeeType();
  const TemplateDecl *tmpl = nullptr;
  if (const auto *tst = t->getAs<TemplateSpecializationType>())
    tmpl = tst->getTemplateName().getAsTemplateDecl();
  else if (const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl()))
    tmpl = spec->getSpecializedTemplate();
  if (!tmpl)
    return;
  const std::string name = qualifiedName(*tmpl);
  const llvm::StringRef n = name;
  if (!n.startswith("cutlass::") && !n.startswith("cute::"))
    return;
  const LineRange lines = linesOf(range);
  const bool seen = llvm::any_of(out_.references, [&](const ApiReference &r) {
    return r.name == name && r.lines == lines;
  });
  if (!seen)
    out_.references.push_back(ApiReference{name, n.startswith("cute::") ? CallCategory::Cute : CallCategory::Cutlass,
                                           where.function, -1, lines});
}

void Collector::onVar(const VarDecl &var) {
  if (var.isImplicit() || fromStubMacro(var.getLocation()))
    return;
  const Context where = contextOf(var);
  SourceRange typeRange = var.getSourceRange();
  if (const TypeSourceInfo *tsi = var.getTypeSourceInfo())
    typeRange = tsi->getTypeLoc().getSourceRange();
  numericTypeUses(var.getType(), NumericUseKind::Declaration, where, typeRange);
  templateUse(var.getType(), where, typeRange);

  if (!var.hasGlobalStorage() || isa<ParmVarDecl>(var) || !var.isFirstDecl())
    return;
  if (var.hasAttr<CUDASharedAttr>() || var.isConstexpr() || var.getType().isConstQualified() ||
      var.getType()->isReferenceType())
    return;
  MutableStatic st;
  st.name = qualifiedName(var);
  st.type = var.getType().getAsString(policy_);
  const bool device = (var.hasAttr<CUDADeviceAttr>() && !var.getAttr<CUDADeviceAttr>()->isImplicit()) ||
                      var.hasAttr<CUDAConstantAttr>();
  if (device)
    st.storage = StaticStorage::Device;
  else if (var.isStaticDataMember())
    st.storage = StaticStorage::StaticMember;
  else if (var.isStaticLocal())
    st.storage = StaticStorage::StaticLocal;
  else
    st.storage = StaticStorage::Global;
  if (st.storage == StaticStorage::StaticLocal)
    st.function = where.function;
  st.threadLocal = var.getTLSKind() != VarDecl::TLS_None;
  QualType t = var.getType();
  while (const ArrayType *arr = t->getAsArrayTypeUnsafe())
    t = arr->getElementType();
  st.pointer = t->isPointerType();
  if (const CXXRecordDecl *rd = t->getAsCXXRecordDecl()) {
    const std::string rq = qualifiedName(*rd);
    st.container = names::isContainerType(rq);
    st.pointer |= names::isSmartPointer(rq);
  }
  const std::string canonical = var.getType().getCanonicalType().getAsString(policy_);
  st.holdsTensor = llvm::StringRef(canonical).contains("at::Tensor");
  st.lines = linesOf(var.getSourceRange());
  statics_[var.getCanonicalDecl()] = out_.statics.size();
  out_.statics.push_back(std::move(st));
}

void Collector::onField(const FieldDecl &field) {
  if (field.isImplicit() || fromStubMacro(field.getLocation()))
    return;
  SourceRange typeRange = field.getSourceRange();
  if (const TypeSourceInfo *tsi = field.getTypeSourceInfo())
    typeRange = tsi->getTypeLoc().getSourceRange();
  numericTypeUses(field.getType(), NumericUseKind::Declaration, contextOf(field), typeRange);
}

void Collector::onAlias(const TypedefNameDecl &alias) {
  if (alias.isImplicit() || fromStubMacro(alias.getLocation()))
    return;
  const Context where = contextOf(alias);
  numericTypeUses(alias.getUnderlyingType(), NumericUseKind::TypeAlias, where, alias.getSourceRange());
  templateUse(alias.getUnderlyingType(), where, alias.getSourceRange());
}

void Collector::onCast(const ExplicitCastExpr &cast) {
  const Context where = contextOf(cast);
  const QualType to = cast.getTypeAsWritten();
  const QualType from = cast.getSubExprAsWritten()->getType();
  const std::optional<std::string> toName = numericTypeName(to);
  if (toName) {
    const bool narrowing = from->isRealFloatingType() && !numericTypeOf(from);
    addNumeric(*names::numericTypeOfName(*toName), NumericUseKind::Cast, *toName,
               narrowing ? ConversionDirection::Narrowing : ConversionDirection::None, where,
               cast.getSourceRange());
    return;
  }
  if (to->isRealFloatingType()) {
    if (auto fromName = numericTypeName(from))
      addNumeric(*names::numericTypeOfName(*fromName), NumericUseKind::Cast, *fromName,
                 ConversionDirection::Widening, where, cast.getSourceRange());
    return;
  }
  // Pointer casts: reinterpret_cast<half *>(x.data_ptr()) views memory as the type.
  numericTypeUses(to, NumericUseKind::Cast, where, cast.getSourceRange());
}

void Collector::onDeclRef(const DeclRefExpr &ref) {
  const ValueDecl *d = ref.getDecl();
  if (const auto *var = dyn_cast<VarDecl>(d)) {
    if (const auto it = statics_.find(var->getCanonicalDecl()); it != statics_.end()) {
      staticAccess(ref, it->second);
      return;
    }
    if (var->hasLocalStorage())
      return;
  }
  if (isa<VarDecl>(d) || isa<EnumConstantDecl>(d)) {
    const std::string q = qualifiedName(*d);
    const auto numeric = names::numericConstant(q);
    const auto reference = names::classifyReference(q);
    if (!numeric && !reference)
      return;
    const Context where = contextOf(ref);
    if (numeric)
      addNumeric(*numeric, NumericUseKind::LibraryConstant, q, ConversionDirection::None, where,
                 ref.getSourceRange());
    if (reference)
      out_.references.push_back(ApiReference{q, *reference, where.function, -1, linesOf(ref.getSourceRange())});
    return;
  }
  // A function named without being called still runs from here: a thread body, a kernel
  // passed to cudaLaunchKernel, a callback.
  if (const auto *fd = dyn_cast<FunctionDecl>(d); fd && isUserFunction(*fd))
    addEdge(contextOf(ref).function, functionName(*fd), ref.getSourceRange());
}

void Collector::onMember(const MemberExpr &member) {
  const ValueDecl *d = member.getMemberDecl();
  if (const auto *var = dyn_cast<VarDecl>(d)) {
    if (const auto it = statics_.find(var->getCanonicalDecl()); it != statics_.end())
      staticAccess(member, it->second);
    return;
  }
  if (const auto *field = dyn_cast<FieldDecl>(d)) {
    const std::string q = qualifiedName(*field);
    if (const auto category = names::classifyReference(q))
      out_.references.push_back(
          ApiReference{q, *category, contextOf(member).function, -1, linesOf(member.getSourceRange())});
    return;
  }
  if (const auto *md = dyn_cast<CXXMethodDecl>(d); md && isUserFunction(*md))
    addEdge(contextOf(member).function, functionName(*md), member.getSourceRange());
}

namespace {

/// Members that look up by key: their first argument is the key.
bool isKeyedLookup(llvm::StringRef name) {
  static const llvm::StringRef kLookups[] = {"find", "count", "at", "contains", "emplace",
                                             "try_emplace", "insert", "insert_or_assign", "erase",
                                             "equal_range", "lower_bound", "upper_bound"};
  return llvm::is_contained(kLookups, name);
}
} // namespace

void Collector::staticAccess(const Expr &ref, size_t index) {
  MutableStatic &st = out_.statics[index];
  const SourceRange refRange = ref.getSourceRange();
  const auto holdsRef = [&](const Expr *e) {
    return e && e->getSourceRange().fullyContains(refRange);
  };
  // Walk up through parentheses and implicit conversions to the expression using the
  // static. It is written when assigned, incremented, address-taken, or the object of a
  // mutating member call or operator; its key is what it is indexed, looked up, compared
  // or assigned with.
  llvm::SmallVector<const Expr *, 2> keys;
  DynTypedNode node = DynTypedNode::create(ref);
  for (int depth = 0; depth < 6; ++depth) {
    const auto parents = ctx_.getParents(node);
    if (parents.empty())
      break;
    const DynTypedNode parent = parents[0];
    if (const auto *bo = parent.get<BinaryOperator>()) {
      if (bo->isAssignmentOp() && holdsRef(bo->getLHS())) {
        st.written = true;
        keys.push_back(bo->getRHS());
      } else if (bo->isComparisonOp()) {
        keys.push_back(holdsRef(bo->getLHS()) ? bo->getRHS() : bo->getLHS());
      }
      break;
    }
    if (const auto *uo = parent.get<UnaryOperator>()) {
      st.written |= uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf;
      break;
    }
    if (const auto *op = parent.get<CXXOperatorCallExpr>()) {
      if (op->getNumArgs() == 2) {
        const bool lhs = holdsRef(op->getArg(0));
        const OverloadedOperatorKind k = op->getOperator();
        if (lhs && (op->isAssignmentOp() || k == OO_Subscript))
          st.written = true; // map[key] inserts
        if (lhs && k == OO_Subscript)
          keys.push_back(op->getArg(1));
        else if (lhs && op->isAssignmentOp())
          keys.push_back(op->getArg(1));
        else if (op->isComparisonOp())
          keys.push_back(lhs ? op->getArg(1) : op->getArg(0));
      } else if (op->getNumArgs() == 1 && holdsRef(op->getArg(0))) {
        st.written |= op->getOperator() == OO_PlusPlus || op->getOperator() == OO_MinusMinus;
      }
      break;
    }
    if (const auto *mem = parent.get<MemberExpr>()) {
      const auto grand = ctx_.getParents(*mem);
      if (!grand.empty())
        if (const auto *mc = grand[0].get<CXXMemberCallExpr>())
          if (const CXXMethodDecl *md = mc->getMethodDecl(); md && md->getIdentifier()) {
            st.written |= isMutatingMethod(md->getName());
            if (isKeyedLookup(md->getName()) && mc->getNumArgs() > 0)
              keys.push_back(mc->getArg(0));
          }
      break;
    }
    if (!parent.get<ParenExpr>() && !parent.get<ImplicitCastExpr>() &&
        !parent.get<MaterializeTemporaryExpr>() && !parent.get<CXXBindTemporaryExpr>())
      break;
    node = parent;
  }
  // A key built from data_ptr() (directly or through a local initialised from it) keys
  // by address; one built from sizes() keys by shape.
  const std::function<void(const Stmt *, int)> scan = [&](const Stmt *s, int hops) {
    if (!s)
      return;
    llvm::StringRef method;
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(s)) {
      if (const CXXMethodDecl *md = mc->getMethodDecl(); md && md->getIdentifier())
        method = md->getName();
    } else if (const auto *dm = dyn_cast<CXXDependentScopeMemberExpr>(s)) {
      if (dm->getMember().isIdentifier())
        method = dm->getMember().getAsIdentifierInfo()->getName();
    }
    if (!method.empty()) {
      st.keyedByDataPtr |= names::isDataPtrMethod(method);
      st.keyedByShape |= names::isShapeMethod(method);
    }
    if (const auto *r = dyn_cast<DeclRefExpr>(s); r && hops == 0)
      if (const auto *local = dyn_cast<VarDecl>(r->getDecl());
          local && local->hasLocalStorage() && local->getInit())
        scan(local->getInit(), hops + 1);
    for (const Stmt *c : s->children())
      scan(c, hops);
  };
  for (const Expr *key : keys)
    scan(key, 0);
}

} // namespace kbaudit::cxx::collect
