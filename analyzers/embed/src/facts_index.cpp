#include "facts_index.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>

namespace kbaudit::embed::detail {

std::vector<std::string> enclosingScopes(std::string_view function) {
  std::vector<std::string> scopes;
  std::string s(function);
  while (!s.empty()) {
    scopes.push_back(s);
    const auto dot = s.rfind('.');
    s = dot == std::string::npos ? std::string() : s.substr(0, dot);
  }
  scopes.emplace_back();
  return scopes;
}

bool isWithin(std::string_view inner, std::string_view outer) {
  if (outer.empty() || inner == outer)
    return true;
  return inner.size() > outer.size() && inner.substr(0, outer.size()) == outer &&
         inner[outer.size()] == '.';
}

namespace {

bool linesWithin(const LineRange &inner, const LineRange &outer) {
  return inner.valid() && outer.valid() && inner.begin >= outer.begin && inner.end <= outer.end;
}

/// Whether `text` is a call of `callee`: the callee, optional blanks, then '('.
bool writtenAsCallOf(llvm::StringRef text, llvm::StringRef callee) {
  if (callee.empty() || !text.startswith(callee))
    return false;
  return text.drop_front(callee.size()).ltrim().startswith("(");
}

std::string selfForm(std::string_view name) {
  llvm::StringRef n(name.data(), name.size());
  if (n.consume_front("cls."))
    return "self." + n.str();
  return n.str();
}

} // namespace

FactsIndex::FactsIndex(const py::PythonFacts &facts) : facts_(facts) {
  for (const py::Function &f : facts.functions)
    functions_.emplace(f.qualname, &f);
  for (const py::Call &c : facts.calls)
    callsByFirstLine_[c.lines.begin].push_back(&c);
  for (const py::Import &i : facts.imports)
    importsByName_[i.boundName].push_back(&i);
  for (const py::Assignment &a : facts.assignments)
    assignmentsByTarget_[selfForm(a.target)].push_back(&a);
}

std::string FactsIndex::resolve(std::string_view dotted, std::string_view function) const {
  const std::vector<std::string> scopes = enclosingScopes(function);
  // `import torch.utils.cpp_extension` may be recorded under its whole dotted name, so
  // try the longest bound prefix first.
  std::string_view prefix = dotted;
  while (!prefix.empty()) {
    if (auto it = importsByName_.find(prefix); it != importsByName_.end()) {
      const py::Import *chosen = nullptr;
      for (const std::string &scope : scopes) {
        for (const py::Import *imp : it->second)
          if (imp->function == scope) {
            chosen = imp;
            break;
          }
        if (chosen)
          break;
      }
      // An import inside another def still tells what the name means in this file;
      // solutions import torch helpers lazily in a builder and call them elsewhere. Not
      // when this scope has its own meaning for the name (a def or an assignment).
      if (!chosen && !locallyBound(prefix, function))
        chosen = it->second.front();
      if (!chosen)
        break;
      return chosen->target + std::string(dotted.substr(prefix.size()));
    }
    const auto dot = prefix.rfind('.');
    if (dot == std::string_view::npos)
      break;
    prefix = prefix.substr(0, dot);
  }
  return std::string(dotted);
}

bool FactsIndex::locallyBound(std::string_view name, std::string_view function) const {
  if (name.find('.') != std::string_view::npos)
    return false;
  for (const std::string &scope : enclosingScopes(function))
    if (this->function(scope.empty() ? std::string(name) : scope + "." + std::string(name)))
      return true;
  return !bindingsOf(name, function, /*lexicalOnly=*/true).empty();
}

bool FactsIndex::callsName(const py::Call &call, std::string_view qualifiedName) const {
  if (call.resolved == qualifiedName)
    return true;
  return !call.callee.empty() && resolve(call.callee, call.function) == qualifiedName;
}

const py::Call *FactsIndex::callOf(const py::Expr &e) const {
  if (e.kind != py::ExprKind::Call)
    return nullptr;
  auto it = callsByFirstLine_.find(e.lines.begin);
  if (it == callsByFirstLine_.end())
    return nullptr;
  const py::Call *best = nullptr;
  const llvm::StringRef text(e.text);
  for (const py::Call *c : it->second) {
    if (!writtenAsCallOf(text, c->callee))
      continue;
    // `open(p).read()` starts with both "open(" and "open(p).read(": the longer callee
    // is the outermost call, the one the Expr stands for.
    if (!best || c->callee.size() > best->callee.size())
      best = c;
  }
  if (best)
    return best;
  for (const py::Call *c : it->second)
    if (c->lines == e.lines && !e.resolved.empty() &&
        (c->resolved == e.resolved || c->callee == e.resolved))
      return c;
  return nullptr;
}

const py::Call *FactsIndex::callWrittenAs(std::string_view text, const LineRange &within,
                                          const py::Call *exclude) const {
  const py::Call *best = nullptr;
  const llvm::StringRef t(text.data(), text.size());
  for (const py::Call &c : facts_.calls) {
    if (&c == exclude || !linesWithin(c.lines, within) || !writtenAsCallOf(t, c.callee))
      continue;
    if (!best || c.callee.size() > best->callee.size())
      best = &c;
  }
  return best;
}

std::vector<const py::Assignment *> FactsIndex::bindingsOf(std::string_view name,
                                                           std::string_view function,
                                                           bool lexicalOnly) const {
  std::vector<const py::Assignment *> found;
  const std::string key = selfForm(name);
  auto it = assignmentsByTarget_.find(key);
  if (it == assignmentsByTarget_.end())
    return found;
  if (llvm::StringRef(key).startswith("self.")) {
    const std::string cls = classOf(function);
    for (const py::Assignment *a : it->second)
      if (classOf(a->function) == cls)
        found.push_back(a);
    return found;
  }
  const std::vector<std::string> scopes = enclosingScopes(function);
  for (const std::string &scope : scopes) {
    for (const py::Assignment *a : it->second)
      if (a->function == scope)
        found.push_back(a);
    if (!found.empty() && !scope.empty())
      return found;
    if (!found.empty())
      break;
  }
  if (lexicalOnly)
    return found;
  for (const py::Assignment *a : it->second)
    if (!a->function.empty() && std::find(found.begin(), found.end(), a) == found.end() &&
        std::find(scopes.begin(), scopes.end(), a->function) == scopes.end())
      found.push_back(a);
  return found;
}

const py::Assignment *FactsIndex::assignmentOf(const py::Call &call) const {
  for (const py::Assignment &a : facts_.assignments)
    if (a.value.kind == py::ExprKind::Call && a.value.lines.begin == call.lines.begin &&
        callOf(a.value) == &call)
      return &a;
  return nullptr;
}

const py::Function *FactsIndex::function(std::string_view qualname) const {
  auto it = functions_.find(qualname);
  return it == functions_.end() ? nullptr : it->second;
}

std::string FactsIndex::classOf(std::string_view function) const {
  for (const std::string &scope : enclosingScopes(function))
    if (const py::Function *f = this->function(scope); f && !f->className.empty())
      return f->className;
  return {};
}

std::string FactsIndex::targetFunction(std::string_view callee, std::string_view caller) const {
  llvm::StringRef c(callee.data(), callee.size());
  if (c.empty())
    return {};
  if (c.consume_front("self.") || c.consume_front("cls.")) {
    if (c.contains('.'))
      return {};
    const std::string q = classOf(caller) + "." + c.str();
    return function(q) ? q : std::string();
  }
  if (c.contains('.')) {
    // Class.method, spelled with the class name.
    const py::Function *f = function(c);
    return f && !f->className.empty() ? c.str() : std::string();
  }
  // A bare name reaches defs of enclosing functions and the module, never class bodies.
  for (const std::string &scope : enclosingScopes(caller)) {
    const std::string q = scope.empty() ? c.str() : scope + "." + c.str();
    if (const py::Function *f = function(q); f && f->className.empty())
      return q;
  }
  return {};
}

std::vector<const py::StringConstant *> FactsIndex::stringsWithin(const LineRange &range) const {
  std::vector<const py::StringConstant *> found;
  for (const py::StringConstant &s : facts_.strings)
    if (linesWithin(s.lines, range))
      found.push_back(&s);
  return found;
}

} // namespace kbaudit::embed::detail
