#include "kbaudit/python/facts.h"

#include <llvm/ADT/StringRef.h>

namespace kbaudit::py {

std::string PythonFacts::resolve(std::string_view dotted) const {
  llvm::StringRef d(dotted.data(), dotted.size());
  auto [head, rest] = d.split('.');
  // The last module-level import of the head wins, as it would at run time.
  for (auto it = imports.rbegin(); it != imports.rend(); ++it) {
    if (!it->function.empty() || it->boundName != head)
      continue;
    // `import a.b.c` binds `a` to the package `a`, not to `a.b.c`.
    llvm::StringRef target = it->target;
    if (!it->fromImport && target.startswith(it->boundName + "."))
      target = head;
    std::string out = target.str();
    if (d.contains('.')) {
      out += '.';
      out += rest.str();
    }
    return out;
  }
  return std::string(dotted);
}

const Function *PythonFacts::findFunction(std::string_view qualname) const {
  for (const auto &f : functions)
    if (f.qualname == qualname)
      return &f;
  return nullptr;
}

const Class *PythonFacts::findClass(std::string_view name) const {
  for (const auto &c : classes)
    if (c.name == name)
      return &c;
  return nullptr;
}

} // namespace kbaudit::py
