#include "extraction.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include <map>
#include <utility>

namespace kbaudit::embed::detail {

namespace {

/// Enough rounds for `_ext = _build()` -> `self.ext = _ext` -> `ext = self.ext` chains;
/// each round only adds bindings, so it stops early once nothing changes.
constexpr int kMaxRounds = 6;

/// Which Python names, defs and calls stand for which extension module.
class ModuleBindings {
public:
  explicit ModuleBindings(const Extraction &x) : x_(x) {
    for (std::size_t m = 0; m < x.moduleCalls.size(); ++m) {
      const py::Call *call = x.moduleCalls[m];
      loadCalls_.emplace(call, static_cast<int>(m));
      if (!call->function.empty())
        builders_.emplace(call->function, static_cast<int>(m));
    }
    for (int round = 0; round < kMaxRounds; ++round)
      if (!propagate())
        break;
  }

  /// The module a call evaluates to: a load call, or a call of a def that builds one.
  int moduleOfCall(const py::Call &c) const {
    if (auto it = loadCalls_.find(&c); it != loadCalls_.end())
      return it->second;
    const std::string target = x_.index.targetFunction(c.callee, c.function);
    if (auto it = builders_.find(target); it != builders_.end())
      return it->second;
    return -1;
  }

  /// The module an expression written as `text` evaluates to inside `function`.
  int moduleOfText(const std::string &text, const std::string &function,
                   const LineRange &lines, const py::Call *exclude) const {
    if (llvm::StringRef(text).endswith(")")) {
      const py::Call *c = x_.index.callWrittenAs(text, lines, exclude);
      return c ? moduleOfCall(*c) : -1;
    }
    // Rebinding one name to two modules (a fallback build) keeps the first; both would be
    // reached, and the first is the one the solution prefers.
    for (const py::Assignment *a : x_.index.bindingsOf(text, function))
      if (auto it = modules_.find(a); it != modules_.end())
        return it->second;
    return -1;
  }

  /// `fn = _ext.gemm` / `self.gemm = _ext.gemm`: a name holding an exported function.
  std::pair<int, std::string> aliasOf(const std::string &text, const std::string &function) const {
    for (const py::Assignment *a : x_.index.bindingsOf(text, function))
      if (auto it = aliases_.find(a); it != aliases_.end())
        return it->second;
    return {-1, {}};
  }

private:
  int moduleOfValue(const py::Assignment &a) const {
    const py::Expr &v = a.value;
    if (v.kind == py::ExprKind::Call) {
      const py::Call *c = x_.index.callOf(v);
      return c ? moduleOfCall(*c) : -1;
    }
    if ((v.kind == py::ExprKind::Name || v.kind == py::ExprKind::Attribute) && v.text != a.target)
      return moduleOfText(v.text, a.function, v.lines, nullptr);
    return -1;
  }

  /// A def that stores the module where its callers look for it (a module-level name it
  /// declares global, or a self attribute outside __init__) is a lazy getter that hands
  /// the module back: `_get_ext().gemm(x)`.
  bool storesForCallers(const py::Assignment &a) const {
    if (a.function.empty())
      return false;
    if (a.kind == py::Assignment::TargetKind::SelfAttribute)
      return !llvm::StringRef(a.function).endswith(".__init__");
    if (a.kind != py::Assignment::TargetKind::Name)
      return false;
    for (const py::Assignment *b : x_.index.bindingsOf(a.target, ""))
      if (b->function.empty())
        return true;
    return false;
  }

  bool propagate() {
    bool changed = false;
    for (const py::Assignment &a : x_.index.facts().assignments) {
      if (modules_.count(&a) || aliases_.count(&a))
        continue;
      if (const int m = moduleOfValue(a); m >= 0) {
        modules_.emplace(&a, m);
        if (storesForCallers(a))
          builders_.emplace(a.function, m);
        changed = true;
        continue;
      }
      if (a.value.kind == py::ExprKind::Name || a.value.kind == py::ExprKind::Attribute) {
        // `fn = self._fn` where `self._fn = _ext.gemm`: the alias travels.
        if (auto alias = aliasOf(a.value.text, a.function); alias.first >= 0) {
          aliases_.emplace(&a, std::move(alias));
          changed = true;
          continue;
        }
      }
      if (a.value.kind == py::ExprKind::Attribute) {
        const auto [receiver, attr] = llvm::StringRef(a.value.text).rsplit('.');
        if (!attr.empty()) {
          const int m = moduleOfText(receiver.str(), a.function, a.value.lines, nullptr);
          if (m >= 0) {
            aliases_.emplace(&a, std::make_pair(m, attr.str()));
            changed = true;
          }
        }
      }
    }
    // `def _build(): def _try(...): return load(...); return _try(...)`: calling a nested
    // builder from its enclosing def makes that def a builder too.
    for (const py::Call &c : x_.index.facts().calls) {
      if (c.function.empty() || builders_.count(c.function))
        continue;
      const std::string target = x_.index.targetFunction(c.callee, c.function);
      if (auto it = builders_.find(target);
          it != builders_.end() && target != c.function && isWithin(target, c.function)) {
        builders_.emplace(c.function, it->second);
        changed = true;
      }
    }
    return changed;
  }

  const Extraction &x_;
  std::map<const py::Call *, int> loadCalls_;
  std::map<std::string, int> builders_;
  std::map<const py::Assignment *, int> modules_;
  std::map<const py::Assignment *, std::pair<int, std::string>> aliases_;
};

/// torch.ops.<namespace>.<op>[.overload](...) reaches a module registering that namespace;
/// the namespace is usually the module's name, else a module exporting the op.
std::pair<int, std::string> torchOpsTarget(const Extraction &x, const py::Call &c) {
  llvm::StringRef rest(c.resolved);
  if (!rest.consume_front("torch.ops."))
    return {-1, {}};
  llvm::SmallVector<llvm::StringRef, 3> parts;
  rest.split(parts, '.');
  if (parts.size() < 2)
    return {-1, {}};
  const std::string ns = parts[0].str(), op = parts[1].str();
  for (std::size_t m = 0; m < x.out.modules.size(); ++m)
    if (x.out.modules[m].name == ns)
      return {static_cast<int>(m), op};
  for (std::size_t m = 0; m < x.out.modules.size(); ++m)
    for (const std::string &f : x.out.modules[m].functions)
      if (f == op)
        return {static_cast<int>(m), op};
  return {-1, {}};
}

} // namespace

void extractExtensionCalls(Extraction &x) {
  if (x.out.modules.empty())
    return;
  const ModuleBindings bindings(x);
  for (const py::Call &c : x.index.facts().calls) {
    if (bindings.moduleOfCall(c) >= 0)
      continue; // building or fetching the module is not a call into it
    std::pair<int, std::string> target{-1, {}};
    if (!c.receiver.empty()) {
      if (const int m = bindings.moduleOfText(c.receiver, c.function, c.lines, &c); m >= 0)
        target = {m, c.method};
    }
    if (target.first < 0 && !c.callee.empty())
      target = bindings.aliasOf(c.callee, c.function);
    if (target.first < 0 && c.receiver.empty() && !c.callee.empty()) {
      // A RawKernel object is called directly: `_kernel(grid, block, args)`.
      if (const int m = bindings.moduleOfText(c.callee, c.function, c.lines, &c); m >= 0) {
        const ExtensionModule &mod = x.out.modules[static_cast<std::size_t>(m)];
        target = {m, mod.functions.size() == 1 ? mod.functions.front() : c.callee};
      }
    }
    if (target.first < 0)
      target = torchOpsTarget(x, c);
    if (target.first >= 0)
      x.out.calls.push_back(ExtensionCall{target.first, target.second, c.function, c.lines});
  }
}

} // namespace kbaudit::embed::detail
