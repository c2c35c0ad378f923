// Which Python-defined kernels nothing in the file ever refers to.
//
// A kernel no static path reaches may still run through a path kbaudit cannot follow (an
// attribute set in __init__, a dict of launchers, a name looked up at run time), so rules treat
// it as "maybe reached". A kernel whose name appears nowhere but in its own definition, in a file
// that looks nothing up by name at run time, cannot run at all: it is dead code, and a hack cannot
// hide behind it (an honest-looking kernel defined beside a PyTorch forward proves nothing).

#include "kbaudit/kernels/inventory.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace kbaudit::kernels {

namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// `name` as a whole identifier in `text`.
bool mentions(std::string_view text, std::string_view name) {
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const bool before = at == 0 || !isWordChar(text[at - 1]);
    const bool after = at + name.size() >= text.size() || !isWordChar(text[at + name.size()]);
    if (before && after)
      return true;
  }
  return false;
}

/// Code that reaches objects by a name computed at run time: any kernel may be one of them.
bool looksUpNamesAtRunTime(const py::PythonFacts &python) {
  for (const py::Function &f : python.functions)
    if (f.opaqueReads)
      return true;
  for (const py::Call &c : python.calls) {
    for (std::string_view fn : {"globals", "locals", "vars", "eval", "exec", "compile"})
      if (c.resolved == fn || c.resolved == std::string("builtins.") + std::string(fn))
        return true;
    if ((c.resolved == "importlib.import_module" || c.resolved == "__import__") && !c.args.empty() &&
        !(c.args[0].value.string && c.args[0].value.string->complete))
      return true; // a module named at run time
    if ((c.resolved == "getattr" || c.resolved == "builtins.getattr") && c.args.size() >= 2 &&
        !(c.args[1].value.string && c.args[1].value.string->complete))
      return true;
  }
  return false;
}

/// The lines of the kernel's definition, and of each statement that applies a decorator to it by
/// a call (`k = triton.jit(k)`, decorator_calls.cpp): naming the kernel there defines it, it
/// does not use it.
struct Definition {
  LineRange def;
  std::vector<LineRange> byCall;
  bool contains(unsigned line) const {
    return def.contains(line) ||
           std::any_of(byCall.begin(), byCall.end(), [&](const LineRange &r) { return r.contains(line); });
  }
};

/// Whether anything outside the kernel's definition names `name`.
bool referenced(const py::PythonFacts &python, const Definition &own, const std::string &name) {
  for (const py::Function &f : python.functions)
    if (f.qualname != name && std::binary_search(f.reads.begin(), f.reads.end(), name))
      return true;
  // Module level and class bodies: calls, their arguments, assignments, decorators.
  for (const py::Call &c : python.calls) {
    if (own.contains(c.lines.begin))
      continue;
    if (c.callee == name || c.launchedKernel == name || mentions(c.callee, name))
      return true;
    for (const py::Argument &a : c.args)
      if (mentions(a.value.text, name))
        return true;
  }
  for (const py::Assignment &a : python.assignments)
    if (!own.contains(a.lines.begin) && (mentions(a.value.text, name) || mentions(a.target, name)))
      return true;
  for (const py::Function &f : python.functions)
    for (const py::Decorator &d : f.decorators)
      if (!own.contains(d.lines.begin) && mentions(d.text, name))
        return true;
  // A name spelled in a string (a launch table keyed by name, `__all__`) may be looked up.
  for (const py::StringConstant &s : python.strings)
    if (!s.docstring && !own.contains(s.lines.begin) && mentions(s.value.value, name))
      return true;
  for (const py::Return &r : python.returns)
    if (!own.contains(r.lines.begin) && mentions(r.value.text, name))
      return true;
  return false;
}

/// Whether anything names the kernel: its def's name, or the name a decorator applied by a call
/// binds it to (`k2 = triton.jit(add_kernel)`, then `k2[grid](...)`).
bool referenced(const py::PythonFacts &python, const Kernel &k) {
  Definition own{k.lines, {}};
  std::vector<std::string> names{k.name};
  for (const py::Function &f : python.functions) {
    // The kernel's def, at module level or as a static method (`_Ops._add`).
    if (f.name != k.name || !(k.lines.contains(f.lines.begin) || f.lines.contains(k.lines.begin)))
      continue;
    for (const py::Decorator &d : f.decorators) {
      if (d.lines.begin <= f.lines.end)
        continue; // written with @: applied by a call, it follows the def
      own.byCall.push_back(d.lines);
      for (const py::Assignment &a : python.assignments)
        if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && a.lines.contains(d.lines.begin) &&
            a.target != k.name)
          names.push_back(a.target);
    }
  }
  return std::any_of(names.begin(), names.end(), [&](const std::string &n) { return referenced(python, own, n); });
}

} // namespace

void markUnreferencedKernels(const py::PythonFacts &python, KernelInventory &inv) {
  if (looksUpNamesAtRunTime(python))
    return;
  for (Kernel &k : inv.kernels)
    if ((k.kind == KernelKind::Triton || k.kind == KernelKind::PythonDsl) && !k.reachedFromForward &&
        k.name.find('.') == std::string::npos && !referenced(python, k))
      k.dead = true;
}

} // namespace kbaudit::kernels
