#pragma once

// The tests of a suite's own static gate (problems::GateTest), evaluated by meaning: resolved
// callees, imports, statements, classes, kernels and casts rather than the gate's regular
// expression over the file's text. RUB017 (suite-gate) reports their sites; the profile test
// checks that every `test.kind` a profile names is one of these.

#include "kbaudit/facts.h"
#include "kbaudit/problems/suite_profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules {

/// One place the gate's test matches.
struct GateSite {
  LineRange lines;
  std::string function; ///< the enclosing Python function ("" at module level or in C++)
  std::string what;     ///< the construct, for the message: "`try` statement", "call of torch.matmul"
};

/// The test kinds gateSites understands, with what each matches:
///   try, pass        a `try` / `pass` statement (KernelBench's code_bypass)
///   call             a call whose resolved callee is one of `names` ("mod.*": anything under
///                    mod; ".method": that method on any receiver)
///   cxx-call         a C++ call whose resolved or spelled callee is one of `names`
///   import           an import of one of `names` or a module under it
///   decorator        a decorator (or a call) resolving to one of `names`
///   tensor-subclass  a class deriving from torch.Tensor, `_make_subclass`, `Tensor.__new__`
///   frame-access     a frame attribute of `names` (`f_back`, `f_locals`, ...) or a function
///                    attribute (`__globals__`, `__code__`), read or written
///   frame-write      the same, only where it is written (assigned into, updated)
///   string           a string constant (not a docstring) equal to one of `names`
///   no-kernel        the file holds no authored kernel (CUDA `__global__`, Triton, PTX)
///   downcast         a conversion to one of the dtypes in `names` (default fp16): host
///                    `.half()` / `.to(torch.float16)`, a Triton cast, a CUDA narrowing
///   write-outside    a file opened for writing at a static path under none of `names`
///   stored-output-replay  the graded entry tests state it keeps across calls (module globals,
///                    `self` attributes) and, on a hit, returns what it stored with no work in
///                    the arm (KernelGuard's pointer, config and shape replays)
///   input-keyed-cache a branch of the graded entry keyed on an input's identity, address or
///                    version against state kept across calls (KernelGuard's timed-input replay)
const std::vector<std::string_view> &gateTestKinds();

/// Where the facts match `test`; empty for a kind gateTestKinds does not list.
std::vector<GateSite> gateSites(const Facts &facts, const problems::GateTest &test);

} // namespace kbaudit::rules
