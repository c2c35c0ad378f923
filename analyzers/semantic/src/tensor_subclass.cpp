#include "kbaudit/semantic/tensor_subclass.h"

#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/return_flow.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic {

using pytext::classOf;
using pytext::endsWith;
using pytext::lastSegment;
using pytext::startsWith;

namespace {

constexpr std::array<std::string_view, 4> kTensorBases = {"torch.Tensor", "torch._tensor.Tensor", "torch.nn.Parameter",
                                                          "torch.nn.parameter.Parameter"};
constexpr std::array<std::string_view, 3> kSubclassMakers = {"as_subclass", "_make_subclass", "_make_wrapper_subclass"};

// What a grader's correctness check calls on a result: `out == ref`, `torch.allclose(out, ref)`,
// `(out - ref).abs().max().item()`, `torch.equal`, `assert_close`.
constexpr std::array<std::string_view, 25> kComparisonNames = {
    "__eq__", "__ne__", "__bool__", "__sub__", "__rsub__", "__abs__", "__lt__", "__le__", "__gt__",
    "__ge__", "allclose", "isclose", "equal", "eq", "ne", "sub", "rsub", "abs", "max", "amax",
    "all", "any", "item", "assert_close", "_local_scalar_dense"};

template <std::size_t N> bool among(const std::array<std::string_view, N> &table, std::string_view s) {
  return std::find(table.begin(), table.end(), s) != table.end();
}

bool hasMethod(const py::Class &c, std::string_view m) {
  return std::find(c.methods.begin(), c.methods.end(), m) != c.methods.end();
}

bool tensorSubclass(const py::PythonFacts &facts, const py::Class &c, int depth) {
  if (interceptsTorchOps(c))
    return true;
  for (const std::string &b : c.bases) {
    if (among(kTensorBases, b))
      return true;
    if (const py::Class *local = facts.findClass(b); local && local != &c && depth < 8 && tensorSubclass(facts, *local, depth + 1))
      return true;
  }
  return false;
}

bool isFactoryMethod(const py::Function &fn) {
  return std::any_of(fn.decorators.begin(), fn.decorators.end(),
                     [](const py::Decorator &d) { return d.resolved == "classmethod" || d.resolved == "staticmethod"; });
}

/// A call that makes an instance of `cls` by name, or, inside cls's own methods, of `cls`.
bool makesInstanceDirectly(const py::Call &c, const std::string &cls, bool insideClass) {
  if (c.resolved == cls || c.callee == cls || c.resolved == cls + ".__new__")
    return true;
  if (insideClass && (c.callee == "cls" || c.callee == "super().__new__"))
    return true;
  if (among(kSubclassMakers, c.method))
    for (const py::Argument &a : c.args)
      if (a.value.text == cls || (insideClass && a.value.text == "cls"))
        return true;
  return false;
}

/// The op a torch name stands for: "allclose" of "torch.allclose", "eq" of
/// "torch.ops.aten.eq.Tensor".
std::string_view opName(std::string_view resolved) {
  constexpr std::string_view aten = "torch.ops.aten.";
  if (startsWith(resolved, aten)) {
    const std::string_view rest = resolved.substr(aten.size());
    return rest.substr(0, rest.find('.'));
  }
  return lastSegment(resolved);
}

} // namespace

bool interceptsTorchOps(const py::Class &c) {
  return hasMethod(c, "__torch_function__") || hasMethod(c, "__torch_dispatch__");
}

bool isTensorSubclass(const py::PythonFacts &facts, const py::Class &c) { return tensorSubclass(facts, c, 0); }

bool instantiates(const py::PythonFacts &facts, const py::Call &c, const py::Class &cls) {
  if (makesInstanceDirectly(c, cls.name, false))
    return true;
  // `Lazy.create(a, b)`: a class or static method of the subclass that makes an instance.
  if (!startsWith(c.resolved, cls.name + "."))
    return false;
  const py::Function *fn = facts.findFunction(c.resolved);
  if (!fn || !isFactoryMethod(*fn))
    return false;
  return std::any_of(facts.calls.begin(), facts.calls.end(), [&](const py::Call &inner) {
    return inner.function == fn->qualname && makesInstanceDirectly(inner, cls.name, true);
  });
}

std::vector<SubclassEscape> escapingSubclassInstances(const py::PythonFacts &facts,
                                                      const std::vector<std::string> &entries,
                                                      const std::function<bool(const std::string &)> &reached) {
  std::vector<SubclassEscape> out;
  for (const py::Class &cls : facts.classes) {
    if (!isTensorSubclass(facts, cls))
      continue;
    for (const py::Call &c : facts.calls) {
      // Instances made inside the class's own methods are its machinery, judged where the
      // method is called.
      if (!reached(c.function) || classOf(c.function) == cls.name || !instantiates(facts, c, cls))
        continue;
      if (reachesEntryReturn(facts, c, entries))
        out.push_back({&cls, c.lines, c.function, false});
    }
    for (const py::Assignment &a : facts.assignments) {
      if (a.kind != py::Assignment::TargetKind::Attribute || !endsWith(a.target, ".__class__") ||
          (a.value.text != cls.name && a.value.resolved != cls.name))
        continue;
      const std::string object = a.target.substr(0, a.target.size() - std::string_view(".__class__").size());
      const py::Function *fn = facts.findFunction(a.function);
      const bool entry = std::find(entries.begin(), entries.end(), a.function) != entries.end();
      if (fn && entry && std::find(fn->params.begin(), fn->params.end(), object) != fn->params.end())
        out.push_back({&cls, a.lines, a.function, true});
    }
  }
  return out;
}

std::vector<std::string> comparisonHooks(const py::PythonFacts &facts, const py::Class &c) {
  std::vector<std::string> out;
  auto add = [&](std::string s) {
    if (std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(std::move(s));
  };
  for (const std::string &m : c.methods)
    if (among(kComparisonNames, m))
      add(m);
  for (std::string_view hook : {"__torch_function__", "__torch_dispatch__"}) {
    if (!hasMethod(c, hook))
      continue;
    const std::string scope = c.name + "." + std::string(hook);
    auto inHook = [&](const std::string &fn) {
      return fn == scope || (startsWith(fn, scope) && fn.size() > scope.size() && fn[scope.size()] == '.');
    };
    for (const py::NameRef &r : facts.nameRefs)
      if (inHook(r.function) && startsWith(r.resolved, "torch.") && among(kComparisonNames, opName(r.resolved)))
        add(r.resolved);
    for (const py::StringConstant &s : facts.strings)
      if (inHook(s.function) && !s.docstring && among(kComparisonNames, s.value.value))
        add("\"" + s.value.value + "\"");
  }
  return out;
}

} // namespace kbaudit::semantic
