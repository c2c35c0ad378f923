#pragma once

#include "kbaudit/python/facts.h"

#include <string_view>

namespace kbaudit::py {

/// Parses Python source (valid UTF-8) with tree-sitter and extracts the facts.
/// Never throws on malformed input: syntax errors become diagnostics and the facts of
/// the parts that parsed are kept.
///
/// Conventions the facts follow beyond what facts.h states:
/// - `import a.b.c` gives Import{boundName "a", target "a.b.c"}: the statement binds the
///   package `a`, so `a.x` resolves to "a.x". Relative imports keep their dots
///   (`from ..m import f` -> "..m.f"); `from m import *` gives boundName "*".
/// - Resolution also follows module aliases made by assignment (`cpp = torch.utils.cpp_extension`)
///   and `importlib.import_module("x")` / `__import__("x")`. Plain rebinding of an imported
///   name to a non-module value (`triton = None` in an except branch) does not hide the import.
/// - A name's value is its latest binding before the use in the same scope; from inside a
///   def, enclosing scopes contribute their last binding (the def runs after the module
///   body). Parameters, loop variables and `with ... as` names have no static value.
/// - Call chains that are not plain dotted names resolve with abbreviated arguments:
///   `torch.randn(3).cuda()` -> "torch.randn(...).cuda", `k[grid](x)` -> "k[...]".
/// - `Call::launchedKernel` is set for `k[...](...)` when `k` is a @triton.jit/autotune def
///   of this file, or the index looks like a launch grid (a tuple, lambda, call, or a name
///   mentioning "grid"), or the name mentions "kernel"; `layers[0](x)` is not a launch.
/// - Assignments also record `with open(...) as fh` (op "with") and `(x := v)` (op ":=");
///   `setattr(obj, name, v)` with a non-constant name gives target "obj.<dynamic>".
/// - SelfAccess: `self.x op= v` is a read and a write; `self.x[k] = v`, `self.x.y = v` and
///   mutating calls (`self.x.append/update/setdefault/pop/clear/...`) write `x`.
/// - IdentityCheck "id" is recorded for every `id(...)` call (cache keys as well as
///   comparisons); its text is the enclosing comparison when there is one.
/// - TryHandler::reraises is true for any `raise` in the handler outside nested defs.
/// - Byte strings are decoded like str literals (bytes, not UTF-8, for \x escapes).
/// - Diagnostics: one "syntax-error" Warning per broken region (regions at most two lines
///   apart are one region), "nesting-too-deep" Warning when nesting exceeds the walker's
///   limit, "parse-timeout" Error when tree-sitter gives up.
PythonFacts analyze(std::string_view source);

} // namespace kbaudit::py
