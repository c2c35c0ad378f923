#pragma once
// A decorator applied by a call is a decorator: `k = triton.jit(_k)`, `run = functools.cache(_run)`,
// `f = functools.lru_cache(maxsize=8)(_f)` at module level give the wrapped def that decorator,
// so the Triton front end finds the kernel and the rules see the memoization, as they do for `@`.

#include "kbaudit/python/facts.h"

namespace kbaudit::py {

/// Adds to each def (a module-level one, or a static method named `Cls.f`) the JIT and
/// memoizing decorators a module-level assignment applies to it by a call.
void applyDecoratorCalls(PythonFacts &facts);

} // namespace kbaudit::py
