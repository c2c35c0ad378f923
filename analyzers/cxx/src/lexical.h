#pragma once

// A raw token scan of the main file for calls and kernel launches written with qualified
// names. The collector compares it with the AST: what the scan sees but the AST does not
// was lost to a parse error (a launch of a kernel declared in a missing header, a call
// Clang took for a declaration), and is recovered as an unresolved fact. Only units with
// errors are scanned: in the others the AST holds every call there is.

#include <llvm/ADT/ArrayRef.h>

#include <string>
#include <utility>
#include <vector>

namespace clang {
class SourceManager;
class LangOptions;
} // namespace clang

namespace kbaudit::cxx::lexical {

struct Occurrence {
  std::string name;       ///< qualified as written ("at::matmul", "ns::kernel")
  std::string templateArgs; ///< "<128, 64>" for launches of templates, else ""
  bool launch = false;    ///< followed by <<<...>>>
  std::vector<std::string> config; ///< launch configuration, as written
  std::vector<std::string> args;   ///< call arguments, as written
  unsigned offset = 0;    ///< main-file offset of the name's first token
  unsigned endOffset = 0; ///< offset just past the closing parenthesis
};

/// Occurrences of `name(` and `name<<<` outside comments, strings, preprocessor
/// directives and skipped ranges; member calls (`x.f(`) and declarations (`T f(`) are
/// left out.
std::vector<Occurrence> scan(const clang::SourceManager &sm, const clang::LangOptions &lang,
                             llvm::ArrayRef<std::pair<unsigned, unsigned>> skipped);

} // namespace kbaudit::cxx::lexical
