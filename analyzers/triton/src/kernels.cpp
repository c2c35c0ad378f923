// Which functions are Triton kernels, and how they are decorated.

#include "passes.h"

#include <array>

namespace kbaudit::triton::detail {

namespace {
// Public spellings and the modules that define them (triton/runtime/jit.py, autotuner.py).
constexpr std::array<std::string_view, 3> kJit = {"triton.jit", "triton.runtime.jit", "triton.runtime.jit.jit"};
constexpr std::array<std::string_view, 3> kAutotune = {"triton.autotune", "triton.runtime.autotune",
                                                      "triton.runtime.autotuner.autotune"};
constexpr std::array<std::string_view, 3> kHeuristics = {"triton.heuristics", "triton.runtime.heuristics",
                                                        "triton.runtime.autotuner.heuristics"};

template <size_t N> bool oneOf(const std::array<std::string_view, N> &names, std::string_view s) {
  for (std::string_view n : names)
    if (n == s)
      return true;
  return false;
}

const py::Call *decoratorCall(const Index &index, const py::Decorator &d) {
  for (const auto &c : index.py().calls)
    if (c.resolved == d.resolved && c.lines.begin >= d.lines.begin && c.lines.end <= d.lines.end)
      return &c;
  return nullptr;
}

/// A configs list is countable when written as a literal, or as a name bound once to a
/// literal and never grown afterwards.
std::optional<unsigned> configCount(const Index &index, const py::Expr &configs, std::string_view scope) {
  if (configs.kind == py::ExprKind::List || configs.kind == py::ExprKind::Tuple)
    return static_cast<unsigned>(configs.elements.size());
  if (configs.kind != py::ExprKind::Name)
    return std::nullopt;
  auto bindings = index.bindingsOf(scope, configs.text);
  if (bindings.empty() && !scope.empty())
    bindings = index.bindingsOf("", configs.text);
  if (bindings.size() != 1)
    return std::nullopt;
  const py::Expr &v = bindings[0]->value;
  if (v.kind != py::ExprKind::List && v.kind != py::ExprKind::Tuple)
    return std::nullopt;
  for (const auto &c : index.py().calls)
    if (c.receiver == configs.text && (c.method == "append" || c.method == "extend" || c.method == "insert"))
      return std::nullopt;
  for (const auto &as : index.py().assignments)
    if (as.target == configs.text && as.op != "=")
      return std::nullopt;
  return static_cast<unsigned>(v.elements.size());
}

Autotune autotuneOf(const Index &index, const py::Decorator &d, std::string_view scope) {
  Autotune at;
  at.lines = d.lines;
  const py::Call *c = decoratorCall(index, d);
  if (!c)
    return at;
  if (const py::Expr *configs = argumentFor(c->args, 0, "configs")) {
    at.configsText = configs->text;
    at.configCount = configCount(index, *configs, scope);
  }
  if (const py::Expr *key = argumentFor(c->args, 1, "key"))
    for (const auto &e : key->elements)
      if (e.string)
        at.keys.push_back(e.string->value);
  return at;
}

std::string enclosingScope(const py::Function &f) {
  size_t dot = f.qualname.rfind('.');
  return dot == std::string::npos ? std::string() : f.qualname.substr(0, dot);
}
} // namespace

void findKernels(Analysis &a) {
  for (const auto &f : a.index.py().functions) {
    bool jit = false;
    for (const auto &d : f.decorators)
      jit |= oneOf(kJit, d.resolved);
    if (!jit)
      continue;
    Kernel k{};
    k.name = f.name;
    k.qualname = f.qualname;
    k.lines = f.lines;
    k.decorators = f.decorators;
    for (const auto &p : f.params)
      k.params.push_back(Param{p, Constexpr::No, {}});
    for (const auto &d : f.decorators) {
      if (oneOf(kAutotune, d.resolved) && !k.autotune)
        k.autotune = autotuneOf(a.index, d, enclosingScope(f));
      k.heuristics |= oneOf(kHeuristics, d.resolved);
    }
    a.out.kernels.push_back(std::move(k));
    a.kernelDefs.push_back(&f);
  }
  for (unsigned i = 0; i < a.out.kernels.size(); ++i)
    inferConstexpr(a, i);
}

} // namespace kbaudit::triton::detail
