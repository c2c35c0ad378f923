#include "instantiation_filter.h"

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/TemplateBase.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/TemplateInstCallback.h>

#include <llvm/Support/raw_ostream.h>

#include <memory>

namespace kbaudit::cxx {

namespace {

/// The template arguments' types and templates, in order, with every value argument the same
/// placeholder: what overload resolution inside the instantiation can depend on.
void typeSignature(llvm::ArrayRef<clang::TemplateArgument> args, const clang::PrintingPolicy &policy,
                   llvm::raw_ostream &out) {
  for (const clang::TemplateArgument &arg : args) {
    switch (arg.getKind()) {
    case clang::TemplateArgument::Type:
      arg.getAsType().getCanonicalType().print(out, policy);
      break;
    case clang::TemplateArgument::Template:
    case clang::TemplateArgument::TemplateExpansion:
      arg.print(policy, out, /*IncludeType=*/true);
      break;
    case clang::TemplateArgument::Pack:
      out << "{";
      typeSignature(arg.pack_elements(), policy, out);
      out << "}";
      break;
    default:
      out << "#"; // a value: integral, declaration, null pointer or expression
      break;
    }
    out << ",";
  }
}

/// The template specialization `type` names, with its arguments; null for any other type.
const clang::TemplateSpecializationType *classTemplateNamed(const clang::Type *type) {
  return type ? llvm::dyn_cast<clang::TemplateSpecializationType>(type->getCanonicalTypeInternal().getTypePtr())
              : nullptr;
}

/// The class template of `tst`; null for an alias or template template parameter (or no `tst`).
const clang::ClassTemplateDecl *classTemplateOf(const clang::TemplateSpecializationType *tst) {
  return tst ? llvm::dyn_cast_or_null<clang::ClassTemplateDecl>(tst->getTemplateName().getAsTemplateDecl())
             : nullptr;
}

bool hasSpecializations(const clang::ClassTemplateDecl &decl) {
  llvm::SmallVector<clang::ClassTemplatePartialSpecializationDecl *, 2> partial;
  const_cast<clang::ClassTemplateDecl &>(decl).getPartialSpecializations(partial);
  return !partial.empty() || llvm::any_of(decl.specializations(), [](const clang::ClassTemplateSpecializationDecl *s) {
           return s->getSpecializationKind() == clang::TSK_ExplicitSpecialization;
         });
}

/// Whether naming `type` can mean different declarations for different values of the
/// enclosing template's arguments: a class template named with dependent arguments that has
/// explicit or partial specializations (`Pick<N>`, `std::conditional<(N > 64), ...>` under
/// `std::conditional_t`), or whose bases or member type named (`typename X<N>::Op`) are such,
/// reached through aliases and `typename X<N>::Member` qualifiers; a dependent `decltype`, a
/// name Clang could not tie to a template, or a chain deeper than 8 counts. A class template
/// without specializations (`cub::BlockRadixSort<float, N>`) gives the same members for every value.
bool specializedByValue(const clang::Type *type, llvm::StringRef member = {}, unsigned depth = 0) {
  if (!type || !type->isInstantiationDependentType())
    return false;
  if (depth > 8)
    return true;
  type = type->getCanonicalTypeInternal().getTypePtr();
  if (const auto *name = llvm::dyn_cast<clang::DependentNameType>(type)) {
    const clang::NestedNameSpecifier *q = name->getQualifier();
    const clang::IdentifierInfo *id = name->getIdentifier();
    return q && q->getAsType() && id ? specializedByValue(q->getAsType(), id->getName(), depth + 1) : true;
  }
  if (llvm::isa<clang::DependentTemplateSpecializationType, clang::DecltypeType>(type))
    return true;
  const clang::TemplateSpecializationType *tst = classTemplateNamed(type);
  if (!tst)
    return false; // a template parameter: its type is in the signature
  const clang::ClassTemplateDecl *decl = classTemplateOf(tst);
  if (!decl)
    return true;
  if (hasSpecializations(*decl))
    return true;
  const auto byValue = [&](clang::QualType t) { return specializedByValue(t.getTypePtrOrNull(), {}, depth + 1); };
  if (llvm::any_of(tst->template_arguments(), [&](const clang::TemplateArgument &a) {
        return a.getKind() == clang::TemplateArgument::Type && byValue(a.getAsType());
      }))
    return true;
  const clang::CXXRecordDecl *pattern = decl->getTemplatedDecl();
  if (!pattern || !pattern->hasDefinition())
    return false;
  if (llvm::any_of(pattern->bases(), [&](const clang::CXXBaseSpecifier &b) { return byValue(b.getType()); }))
    return true;
  if (member.empty())
    return false;
  return llvm::any_of(pattern->lookup(&decl->getASTContext().Idents.get(member)), [&](const clang::NamedDecl *d) {
    const auto *alias = llvm::dyn_cast<clang::TypedefNameDecl>(d);
    return alias && byValue(alias->getUnderlyingType());
  });
}

/// The written body a call to `fd` runs: the template it instantiates, or `fd` itself.
const clang::FunctionDecl *patternOf(const clang::FunctionDecl *fd) {
  if (!fd)
    return nullptr;
  if (const clang::FunctionDecl *pattern = fd->getTemplateInstantiationPattern())
    return pattern;
  return fd;
}

/// Whether a template's body, as written, can take a different path for different values
/// of its arguments: an `if constexpr` (the branch not taken is not instantiated), a type a
/// value can resolve to different declarations (specializedByValue), through which a call or
/// a conversion can resolve differently, or a call to a function whose body is such (a
/// dropped `outer<1>` would never ask for `inner<1>`). `sensitive` memoizes over patterns.
class ValueSensitivity : public clang::RecursiveASTVisitor<ValueSensitivity> {
public:
  explicit ValueSensitivity(llvm::DenseMap<const clang::FunctionDecl *, bool> &sensitive)
      : sensitive_(sensitive) {}

  bool found = false;

  /// Whether `fd`'s body is value-sensitive; a function on the current call path counts
  /// as not (its other paths decide).
  bool of(const clang::FunctionDecl *fd) {
    fd = patternOf(fd);
    if (!fd)
      return false;
    fd = fd->getCanonicalDecl();
    auto [it, inserted] = sensitive_.try_emplace(fd, false);
    if (!inserted)
      return it->second;
    const clang::FunctionDecl *def = nullptr;
    if (!fd->hasBody(def) || !def->getBody())
      return false;
    ValueSensitivity walk(sensitive_);
    walk.TraverseStmt(def->getBody());
    return sensitive_[fd] = walk.found;
  }

  bool VisitIfStmt(clang::IfStmt *s) { return mark(s->isConstexpr()); }
  bool VisitType(clang::Type *t) { return mark(specializedByValue(t)); }
  bool VisitDeclRefExpr(clang::DeclRefExpr *e) {
    return mark(of(llvm::dyn_cast<clang::FunctionDecl>(e->getDecl())));
  }
  bool VisitMemberExpr(clang::MemberExpr *e) {
    return mark(of(llvm::dyn_cast<clang::FunctionDecl>(e->getMemberDecl())));
  }
  bool VisitOverloadExpr(clang::OverloadExpr *e) { return markAny(e->decls()); }
  /// `t.run()` with `t` of a dependent type: any member of that name in the class template
  /// it names; a member template named with dependent arguments counts as sensitive.
  bool VisitCXXDependentScopeMemberExpr(clang::CXXDependentScopeMemberExpr *e) {
    if (e->hasExplicitTemplateArgs())
      return mark(true);
    const clang::Type *base = e->getBaseType().isNull() ? nullptr : e->getBaseType().getTypePtr();
    if (base && base->isPointerType())
      base = base->getPointeeType().getTypePtr();
    const clang::ClassTemplateDecl *decl = classTemplateOf(classTemplateNamed(base));
    return !decl || markAny(decl->getTemplatedDecl()->lookup(e->getMember()));
  }

private:
  bool mark(bool sensitive) {
    found = found || sensitive;
    return !found;
  }
  /// mark() for the functions among `decls` (a function template by its pattern).
  template <class Decls> bool markAny(const Decls &decls) {
    for (const clang::NamedDecl *d : decls) {
      d = d->getUnderlyingDecl();
      if (const auto *t = llvm::dyn_cast<clang::FunctionTemplateDecl>(d))
        d = t->getTemplatedDecl();
      if (!mark(of(llvm::dyn_cast<clang::FunctionDecl>(d))))
        return false;
    }
    return true;
  }

  llvm::DenseMap<const clang::FunctionDecl *, bool> &sensitive_;
};

/// Filters the queue when Sema finishes instantiating a template.
class AfterInstantiation : public clang::TemplateInstantiationCallback {
public:
  AfterInstantiation(InstantiationFilter &filter, clang::Sema &sema) : filter_(filter), sema_(sema) {}
  void initialize(const clang::Sema &) override {}
  void finalize(const clang::Sema &) override {}
  void atTemplateBegin(const clang::Sema &, const clang::Sema::CodeSynthesisContext &) override {}
  void atTemplateEnd(const clang::Sema &, const clang::Sema::CodeSynthesisContext &inst) override {
    if (inst.Kind == clang::Sema::CodeSynthesisContext::TemplateInstantiation)
      filter_.dropRepeated(sema_);
  }

private:
  InstantiationFilter &filter_;
  clang::Sema &sema_;
};

} // namespace

bool InstantiationFilter::valueSensitive(const clang::FunctionDecl &pattern) {
  return ValueSensitivity(sensitive_).of(&pattern);
}

/// Which template (the written pattern) `fd` instantiates, and with which type arguments,
/// its enclosing class templates' included; empty when it is not an instantiation whose
/// values can be set aside.
std::string InstantiationFilter::key(const clang::FunctionDecl &fd, const clang::PrintingPolicy &policy) {
  const clang::FunctionDecl *pattern = fd.getTemplateInstantiationPattern();
  if (!pattern || valueSensitive(*pattern))
    return {};
  std::string key;
  llvm::raw_string_ostream out(key);
  out << static_cast<const void *>(pattern->getCanonicalDecl()) << ":";
  if (const clang::TemplateArgumentList *args = fd.getTemplateSpecializationArgs())
    typeSignature(args->asArray(), policy, out);
  for (const clang::DeclContext *dc = fd.getDeclContext(); dc; dc = dc->getParent()) {
    if (const auto *spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(dc)) {
      out << "|";
      typeSignature(spec->getTemplateArgs().asArray(), policy, out);
    }
  }
  return key;
}

void InstantiationFilter::install(clang::Sema &sema) {
  sema.TemplateInstCallbacks.push_back(std::make_unique<AfterInstantiation>(*this, sema));
}

void InstantiationFilter::dropRepeated(clang::Sema &sema) {
  const clang::PrintingPolicy policy = sema.getASTContext().getPrintingPolicy();
  auto &queue = sema.PendingInstantiations;
  for (auto it = queue.begin(); it != queue.end();) {
    auto *fd = llvm::dyn_cast<clang::FunctionDecl>(it->first);
    if (!fd || kept_.contains(fd)) {
      ++it;
      continue;
    }
    const std::string k = key(*fd, policy);
    if (k.empty() || seen_.insert(k).second) {
      kept_.insert(fd);
      ++it;
      continue;
    }
    fd->setInstantiationIsPending(false);
    it = queue.erase(it);
    dropped_.insert(fd);
  }
}

} // namespace kbaudit::cxx
