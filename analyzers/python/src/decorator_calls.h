#pragma once
// A decorator applied by a call is a decorator: `k = triton.jit(_k)`, `run = functools.cache(_run)`,
// `f = functools.lru_cache(maxsize=8)(_f)` at module level give the wrapped def that decorator,
// so the Triton front end finds the kernel and the rules see the memoization, as they do for `@`.

#include "kbaudit/python/facts.h"

#include <string_view>

namespace kbaudit::py {

/// A decorator that compiles the def's source as a kernel, by what it resolves to: Triton's
/// (`triton.jit`, `triton.autotune`, ...) and the like (`cute.jit`, a bare imported `jit`).
bool jitDecorator(std::string_view resolved);

/// Adds to each def (a module-level one, or a static method named `Cls.f`) the JIT and
/// memoizing decorators a module-level assignment applies to it by a call.
void applyDecoratorCalls(PythonFacts &facts);

} // namespace kbaudit::py
