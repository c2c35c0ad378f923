// Where kernels are launched, and which jit functions call which.

#include "identifiers.h"
#include "passes.h"

#include <algorithm>

namespace kbaudit::triton::detail {

namespace {
bool inScope(std::string_view scope, std::string_view function) {
  return scope.empty() || function == scope ||
         (function.size() > scope.size() && function.starts_with(scope) && function[scope.size()] == '.');
}

std::string_view scopeOf(std::string_view qualname) {
  size_t dot = qualname.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : qualname.substr(0, dot);
}

/// The kernel a name used in `function` refers to: among kernels with that name, the one
/// defined in the innermost scope enclosing the use (a kernel defined inside the
/// launching function, a method of the same class, then a module-level one); any
/// kernel of that name when none is visible (an inherited method).
std::optional<unsigned> kernelNamed(const Analysis &a, std::string_view name, std::string_view function) {
  std::optional<unsigned> best;
  size_t bestDepth = 0;
  for (unsigned i = 0; i < a.out.kernels.size(); ++i) {
    const Kernel &k = a.out.kernels[i];
    if (k.name != name)
      continue;
    std::string_view scope = scopeOf(k.qualname);
    size_t depth = inScope(scope, function) ? scope.size() + 1 : 0;
    if (!best || depth > bestDepth) {
      best = i;
      bestDepth = depth;
    }
  }
  return best;
}

std::string gridOf(const py::Call &c) {
  std::string_view callee = c.callee;
  if (callee.size() < c.launchedKernel.size() + 2 || !callee.starts_with(c.launchedKernel) ||
      callee.back() != ']')
    return {};
  callee.remove_prefix(c.launchedKernel.size());
  size_t open = callee.find('[');
  if (open == std::string_view::npos)
    return {};
  return std::string(callee.substr(open + 1, callee.size() - open - 2));
}

/// Kernels a launched name stands for when it is a local alias: `kernel = _fast` or
/// `kernel = _a if cond else _b` in the launching function (or at module level).
std::vector<unsigned> aliasedKernels(const Analysis &a, const py::Call &c) {
  std::vector<unsigned> out;
  if (!isIdentifier(c.launchedKernel))
    return out;
  auto bindings = a.index.bindingsOf(c.function, c.launchedKernel);
  if (bindings.empty())
    bindings = a.index.bindingsOf("", c.launchedKernel);
  const auto add = [&](unsigned k) {
    if (std::find(out.begin(), out.end(), k) == out.end())
      out.push_back(k);
  };
  for (const py::Assignment *b : bindings) {
    for (const auto &id : identifiersIn(b->value.text))
      if (auto k = kernelNamed(a, id, c.function))
        add(*k);
    // `probe = triton.jit(_Ops._peek)`: the binding applies the kernel's decorator by a call
    // (decorator_calls.cpp put it on the def, at this line), whatever the def is named through.
    for (unsigned k = 0; k < a.out.kernels.size(); ++k)
      for (const py::Decorator &d : a.out.kernels[k].decorators)
        if (d.lines.begin > a.out.kernels[k].lines.end && b->lines.contains(d.lines.begin))
          add(k);
  }
  return out;
}
} // namespace

void findLaunches(Analysis &a) {
  for (const auto &c : a.index.py().calls) {
    if (c.launchedKernel.empty())
      continue;
    Launch l;
    l.kernelText = c.launchedKernel;
    l.kernel = kernelNamed(a, lastSegment(c.launchedKernel), c.function);
    if (l.kernel) {
      l.candidates.push_back(*l.kernel);
    } else {
      l.candidates = aliasedKernels(a, c);
      if (l.candidates.size() == 1)
        l.kernel = l.candidates[0];
    }
    l.grid = gridOf(c);
    l.function = c.function;
    l.args = c.args;
    l.lines = c.lines;
    for (unsigned k : l.candidates)
      a.out.kernels[k].launched = true;
    a.out.launches.push_back(std::move(l));
  }
}

void linkHelpers(Analysis &a) {
  for (unsigned i = 0; i < a.out.kernels.size(); ++i) {
    for (const py::Call *c : a.index.callsIn(a.out.kernels[i].qualname)) {
      if (!c->launchedKernel.empty() || !c->receiver.empty())
        continue;
      auto callee = kernelNamed(a, c->callee, a.out.kernels[i].qualname);
      if (!callee)
        continue;
      auto &calls = a.out.kernels[i].calls;
      if (std::find(calls.begin(), calls.end(), *callee) == calls.end()) {
        calls.push_back(*callee);
        a.out.kernels[*callee].calledBy.push_back(i);
      }
    }
  }
}

} // namespace kbaudit::triton::detail
