#include "prelude_writer.h"

#include <clang/Sema/Sema.h>

namespace kbaudit::cxx {

namespace {

// Sema keeps the list private (ASTWriter is a friend). An explicit instantiation may name a
// private member (C++ [temp.spec]/6), which is how this reaches it: the only member read.
using DeferredDecls = llvm::SmallSetVector<clang::Decl *, 4> clang::Sema::*;
DeferredDecls deferredDeclsMember();
template <DeferredDecls M> struct Access {
  friend DeferredDecls deferredDeclsMember() { return M; }
};
template struct Access<&clang::Sema::DeclsToCheckForDeferredDiags>;

} // namespace

void PreludeWriter::InitializeSema(clang::Sema &sema) {
  sema_ = &sema;
  clang::PCHGenerator::InitializeSema(sema);
}

void PreludeWriter::HandleTranslationUnit(clang::ASTContext &ctx) {
  if (sema_)
    (sema_->*deferredDeclsMember()).clear();
  clang::PCHGenerator::HandleTranslationUnit(ctx);
}

} // namespace kbaudit::cxx
