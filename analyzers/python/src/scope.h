#pragma once

// Pass 1: the scopes of a module and what each name is bound to, in source order, so that
// pass 2 can resolve a use to "the latest binding before it" with a binary search instead
// of rescanning the tree. Also collects the facts that pass 2 needs up front: which
// self-attributes and globals are incremented, and which defs are Triton kernels.

#include "tree.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace kbaudit::py {

struct Binding {
  enum class Kind {
    Import,    ///< import statement: `target` is the dotted name it binds
    Value,     ///< `name = value`
    Augmented, ///< `name op= value`
    Unknown,   ///< parameter, loop variable, `with ... as name`, def/class name
  };
  Kind kind = Kind::Unknown;
  uint32_t pos = 0;       ///< the binding is visible from this byte on (end of its statement)
  uint32_t stmtStart = 0; ///< where its statement starts (an augmented binding reads the previous value there)
  TSNode value{};         ///< right-hand side for Value/Augmented
  int scope = 0;          ///< scope the right-hand side is evaluated in
  std::string target;     ///< Import
  std::string op;         ///< Augmented: "+", "*", ...
  bool parameter = false; ///< Unknown because it is a parameter of the scope's def
};

struct Scope {
  enum class Kind { Module, Class, Function };
  Kind kind = Kind::Module;
  int parent = -1;
  std::string name;
  std::string qualname;   ///< "ModelNew.forward"; "" for the module
  std::string className;  ///< for a def directly in a class body: that class's name
  std::string selfName;   ///< first parameter of a method, inherited by closures inside it
  int classScope = -1;    ///< class whose method this is (inherited by closures)
  TSNode node{};
  llvm::StringMap<std::vector<Binding>> bindings;
  llvm::StringSet<> globals;

  Scope() = default;
  Scope(const Scope &) = default;
  Scope &operator=(const Scope &) = default;
  // StringMap's move does not say noexcept (it throws nothing), so without these std::vector
  // copied every scope's bindings, and freed the old ones, each time `scopes` grew.
  Scope(Scope &&) noexcept = default;
  Scope &operator=(Scope &&) noexcept = default;
};

struct DecoratedDef {
  TSNode def;
  ts::Children decorators; ///< the `decorator` nodes
  int scope = 0;           ///< scope the decorators are evaluated in
};

class ScopeTable {
public:
  std::vector<Scope> scopes;
  std::unordered_map<ts::NodeKey, int, ts::NodeKeyHash> scopeOf; ///< def/class node -> its scope
  std::unordered_map<int, llvm::StringSet<>> classIncrements;   ///< class scope -> attrs of self incremented
  /// Module-level function scope -> attributes of its first parameter it increments: when the
  /// function turns out to be a method's body moved out (findDelegations), they are the class's.
  std::unordered_map<int, llvm::StringSet<>> firstParamIncrements;
  /// A method whose body only delegates to a module-level helper (`return helper(self, x)`):
  /// method def -> helper def (findDelegations).
  std::unordered_map<ts::NodeKey, TSNode, ts::NodeKeyHash> delegateOf;
  llvm::StringSet<> moduleIncrements;                           ///< globals incremented anywhere
  std::vector<DecoratedDef> decoratedDefs;

  /// The binding a use of `name` at byte `pos` in `scope` sees, among those accepted by
  /// `accept`: in the use's own scope the latest one before `pos`; in enclosing scopes
  /// (class bodies are skipped, as in Python) the last one, because functions run after
  /// the module body has finished binding its names.
  const Binding *lookup(llvm::StringRef name, int scope, uint32_t pos,
                        llvm::function_ref<bool(const Binding &)> accept) const;

  int scopeFor(TSNode def, int fallback) const {
    auto it = scopeOf.find(ts::key(def));
    return it == scopeOf.end() ? fallback : it->second;
  }
};

/// Finds trivial delegations (extract_delegation.cpp) and makes each helper read as the method
/// it stands for: its first parameter is that method's `self`, its increments the class's.
void findDelegations(ScopeTable &table, llvm::StringRef src);

/// Builds the scope table. `tooDeep` is called (once per place) when nesting exceeds the
/// walker's limit.
ScopeTable buildScopes(TSNode root, llvm::StringRef src, llvm::function_ref<void(TSNode)> tooDeep);

/// Maximum statement/expression nesting the walkers follow.
inline constexpr unsigned kMaxDepth = 256;

} // namespace kbaudit::py
