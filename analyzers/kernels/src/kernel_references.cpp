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

/// Whether anything outside the kernel's own definition names it.
bool referenced(const py::PythonFacts &python, const Kernel &k) {
  const std::string &name = k.name;
  for (const py::Function &f : python.functions)
    if (f.qualname != name && std::binary_search(f.reads.begin(), f.reads.end(), name))
      return true;
  // Module level and class bodies: calls, their arguments, assignments, decorators.
  for (const py::Call &c : python.calls) {
    if (k.lines.contains(c.lines.begin))
      continue;
    if (c.callee == name || c.launchedKernel == name || mentions(c.callee, name))
      return true;
    for (const py::Argument &a : c.args)
      if (mentions(a.value.text, name))
        return true;
  }
  for (const py::Assignment &a : python.assignments)
    if (!k.lines.contains(a.lines.begin) && (mentions(a.value.text, name) || mentions(a.target, name)))
      return true;
  for (const py::Function &f : python.functions)
    for (const py::Decorator &d : f.decorators)
      if (mentions(d.text, name))
        return true;
  // A name spelled in a string (a launch table keyed by name, `__all__`) may be looked up.
  for (const py::StringConstant &s : python.strings)
    if (!s.docstring && !k.lines.contains(s.lines.begin) && mentions(s.value.value, name))
      return true;
  for (const py::Return &r : python.returns)
    if (!k.lines.contains(r.lines.begin) && mentions(r.value.text, name))
      return true;
  return false;
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
