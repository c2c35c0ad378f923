#pragma once

#include <clang/Serialization/ASTWriter.h>

#include <memory>

namespace kbaudit::cxx {

/// Writes the precompiled prelude as clang::PCHGenerator does, without the list of declarations
/// Sema checks for deferred CUDA diagnostics at the end of a unit. Every unit read that list
/// back and deserialized each declaration on it (thousands of stub functions, 2-3% of a cold
/// audit) only to find no deferred diagnostic: deferred diagnostics are not serialized, and a
/// stub's body cannot call the unit's code, so a unit's own declarations are all the check needs.
class PreludeWriter : public clang::PCHGenerator {
public:
  using clang::PCHGenerator::PCHGenerator;
  void InitializeSema(clang::Sema &sema) override;
  void HandleTranslationUnit(clang::ASTContext &ctx) override;

private:
  clang::Sema *sema_ = nullptr;
};

} // namespace kbaudit::cxx
