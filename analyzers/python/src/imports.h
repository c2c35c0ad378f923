#pragma once

// What one import statement binds. Shared by the scope builder (bindings) and the
// extractor (Import facts) so the two cannot disagree.

#include "tree.h"

#include <llvm/ADT/SmallVector.h>

#include <string>

namespace kbaudit::py {

struct ImportedName {
  std::string local;   ///< name bound in the importing scope ("F", "torch"; "*" for wildcards)
  std::string target;  ///< what the statement names ("torch.nn.functional")
  std::string bindsTo; ///< what `local` denotes: `import a.b` binds `a` to `a`; "" for wildcards
  bool fromImport = false;
  TSNode node{};       ///< the name or aliased_import node
};

void listImports(TSNode stmt, llvm::StringRef src, llvm::SmallVectorImpl<ImportedName> &out);

} // namespace kbaudit::py
