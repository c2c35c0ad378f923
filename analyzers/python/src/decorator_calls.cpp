#include "decorator_calls.h"

#include <algorithm>
#include <string_view>

namespace kbaudit::py {

bool jitDecorator(std::string_view r) { return r.starts_with("triton.") || r.ends_with(".jit") || r == "jit"; }

namespace {

/// The decorators whose meaning the analysers read: a JIT compiling the def's source or a
/// memoizer.
bool readDecorator(std::string_view r) {
  return jitDecorator(r) || r.starts_with("functools.lru_cache") || r.starts_with("functools.cache");
}

} // namespace

void applyDecoratorCalls(PythonFacts &facts) {
  for (const Call &c : facts.calls) {
    const Argument *wrapped = c.positionalArg(0);
    // `_k`, or a static method `Ops._k` named by its qualified name.
    if (!c.function.empty() || !readDecorator(c.resolved) || !wrapped ||
        (wrapped->value.kind != ExprKind::Name && wrapped->value.kind != ExprKind::Attribute))
      continue;
    // Bound by a module-level assignment on the call's line: `k = triton.jit(_k)`.
    const bool bound = std::any_of(facts.assignments.begin(), facts.assignments.end(), [&](const Assignment &a) {
      return a.function.empty() && a.kind == Assignment::TargetKind::Name && a.lines.contains(c.lines.begin);
    });
    if (!bound)
      continue;
    for (Function &f : facts.functions)
      if (f.qualname == wrapped->value.text &&
          std::none_of(f.decorators.begin(), f.decorators.end(),
                       [&](const Decorator &d) { return d.resolved == c.resolved; }))
        f.decorators.push_back(Decorator{c.callee, c.resolved, c.lines});
  }
}

} // namespace kbaudit::py
