#pragma once

// PREC001's Python narrowing sites beyond casts of forward's inputs and the module's own
// weights (prec001.cpp): activations forward computes and then narrows before the math (Q, K
// and V cast to fp16 ahead of attention), and nn modules built in a narrow dtype. The check
// filters them against the contract and decides the confidence as for every other site.

#include "kbaudit/facts.h"

#include <string>
#include <vector>

namespace kbaudit::rules::prec001 {

struct NarrowingSite {
  LineRange lines;
  std::string site;     ///< how the finding names it
  std::string dtype;    ///< canonical narrow dtype
  std::string function; ///< the Python function it is in (for reachability)
};

/// Narrowing conversions (`.half()`, `.bfloat16()`, `.to(torch.float16)`) of values a
/// function computes, whose result feeds math in the same function: a torch reduction or
/// contraction, an nn module, a kernel launch, an extension call, the `@` operator or a helper
/// of the file. Masks (comparisons) and torch factories (constants) are left out: their values
/// are exact in any float type.
std::vector<NarrowingSite> activationCasts(const Facts &facts);

/// nn modules created in a narrow dtype: `nn.Linear(..., dtype=torch.float16)`, or a
/// `.half()` / `.bfloat16()` / `.to(torch.float16)` on the module as it is built.
std::vector<NarrowingSite> narrowModules(const Facts &facts);

} // namespace kbaudit::rules::prec001
