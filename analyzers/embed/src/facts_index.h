#pragma once

// Queries over the Python facts that the extractors share. The front end resolves names
// per scope; this index adds the lookups the embed analyzer needs on top: which def a
// callee names, which Call fact an Expr summary stands for, what a name was bound to.

#include "kbaudit/python/facts.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::embed::detail {

/// `function`, its enclosing defs, then "" (module level): the scopes a name used in
/// `function` may be bound in, innermost first.
std::vector<std::string> enclosingScopes(std::string_view function);

/// True when `inner` is `outer` or a def nested in it.
bool isWithin(std::string_view inner, std::string_view outer);

class FactsIndex {
public:
  explicit FactsIndex(const py::PythonFacts &facts);

  const py::PythonFacts &facts() const { return facts_; }

  /// Whether `call` calls the dotted `qualifiedName`, also when the alias was imported in
  /// a scope the front end does not attribute to the call.
  bool callsName(const py::Call &call, std::string_view qualifiedName) const;

  /// `dotted` with its head replaced by what an import binds it to, innermost scope first.
  std::string resolve(std::string_view dotted, std::string_view function) const;

  /// The Call fact a Call-kind Expr summarises (nullptr when none matches).
  const py::Call *callOf(const py::Expr &e) const;

  /// The call written as `text` ("open(p, 'w')", "_build()") on the lines `within`,
  /// other than `exclude`.
  const py::Call *callWrittenAs(std::string_view text, const LineRange &within,
                                const py::Call *exclude = nullptr) const;

  /// Assignments to `name` visible from `function`: those of the innermost scope that
  /// binds it. `self.x` names are looked up across the methods of the enclosing class.
  /// When the innermost binding is at module level (or there is none), the bindings of
  /// the name in other defs are added unless `lexicalOnly`: a def that declares it
  /// `global` rebinds it, and the facts do not say which defs do.
  std::vector<const py::Assignment *> bindingsOf(std::string_view name,
                                                 std::string_view function,
                                                 bool lexicalOnly = false) const;

  /// The assignment whose value is exactly `call` (`_ext = load_inline(...)`), if any.
  const py::Assignment *assignmentOf(const py::Call &call) const;

  /// Qualified name of the def that `callee`, called from `caller`, names ("" if none).
  std::string targetFunction(std::string_view callee, std::string_view caller) const;

  /// Class whose method (or nested def of a method) `function` is ("" for free code).
  std::string classOf(std::string_view function) const;

  const py::Function *function(std::string_view qualname) const;

  /// Folded string constants whose lines lie inside `range`.
  std::vector<const py::StringConstant *> stringsWithin(const LineRange &range) const;

private:
  /// Whether a def or an assignment visible from `function` binds the bare `name`.
  bool locallyBound(std::string_view name, std::string_view function) const;

  const py::PythonFacts &facts_;
  std::map<std::string, const py::Function *, std::less<>> functions_;
  std::map<unsigned, std::vector<const py::Call *>> callsByFirstLine_;
  std::map<std::string, std::vector<const py::Import *>, std::less<>> importsByName_;
  std::map<std::string, std::vector<const py::Assignment *>, std::less<>> assignmentsByTarget_;
};

} // namespace kbaudit::embed::detail
