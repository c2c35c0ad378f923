#include "kbaudit/python/frontend.h"

namespace kbaudit::py {
// Placeholder until the tree-sitter front end lands.
PythonFacts analyze(std::string_view) { return {}; }
std::string PythonFacts::resolve(std::string_view dotted) const { return std::string(dotted); }
const Function *PythonFacts::findFunction(std::string_view) const { return nullptr; }
const Class *PythonFacts::findClass(std::string_view) const { return nullptr; }
} // namespace kbaudit::py
