#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringSet.h>

#include <string>

namespace clang {
class FunctionDecl;
class Sema;
struct PrintingPolicy;
} // namespace clang

namespace kbaudit::cxx {

/// Keeps, of the function template instantiations Sema queues, one per template and *type*
/// arguments: instantiations that differ only in values (`kernel<64>`, `kernel<128>`) resolve
/// every call alike, and the collector mines instantiations only for the calls they resolve
/// (templates are mined as written). On kernels dispatched over many tile sizes these
/// instantiations were most of Clang's time. A template whose body a value steers
/// (`if constexpr`) keeps every instantiation.
///
/// `dropRepeated` runs after each top-level declaration (the instantiations it queued) and,
/// through `install`, after each instantiation (those queued while instantiating), always
/// before Sema takes the queue's front.
class InstantiationFilter {
public:
  /// Registers with `sema` to filter after each template instantiation it finishes.
  void install(clang::Sema &sema);
  void dropRepeated(clang::Sema &sema);
  unsigned dropped() const { return static_cast<unsigned>(dropped_.size()); }

private:
  bool valueSensitive(const clang::FunctionDecl &pattern);
  std::string key(const clang::FunctionDecl &fd, const clang::PrintingPolicy &policy);

  llvm::DenseMap<const clang::FunctionDecl *, bool> sensitive_;
  llvm::StringSet<> seen_;
  llvm::DenseSet<const void *> kept_;
  llvm::DenseSet<const void *> dropped_;
};

} // namespace kbaudit::cxx
