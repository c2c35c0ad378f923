#pragma once

// The passes analyze() runs, in order. Each fills one part of TritonFacts.

#include "index.h"
#include "kbaudit/triton/facts.h"

#include <optional>
#include <string_view>
#include <vector>

namespace kbaudit::triton::detail {

struct Analysis {
  const Index &index;
  TritonFacts &out;
  std::vector<const py::Function *> kernelDefs; ///< parallel to out.kernels
};

/// @triton.jit functions with their decorators, params and autotune configs.
void findKernels(Analysis &a);
/// Param::constexprState from the signature's annotations and from shape uses.
void inferConstexpr(Analysis &a, unsigned kernel);
/// `k[grid](...)` launches, resolved to kernels; Kernel::launched.
void findLaunches(Analysis &a);
/// jit-to-jit calls: Kernel::calls / calledBy.
void linkHelpers(Analysis &a);
/// Casts inside kernels.
void findCasts(Analysis &a);
/// triton.language operations inside kernels.
void findOps(Analysis &a);
/// tl.dot / tl.dot_scaled with folded arguments and traced operands.
void findDots(Analysis &a);
/// Kernel::work and Kernel::kind (needs casts, ops, dots, helper links).
void classifyWork(Analysis &a);

/// The cast a call inside a kernel performs (`x.to(tl.X)`, `tl.cast(x, tl.X)`), if it is one.
std::optional<Cast> castOf(const Analysis &a, const py::Call &c, unsigned kernel);
/// Classifies a triton.language name ("triton.language.sort" -> Sort).
OpKind opKindOf(std::string_view resolved);
/// Tensor methods Triton defines that are operations in their own right (`x.sum(0)`).
bool isTensorMemberOp(std::string_view method);

/// A dtype expression as written and, following names bound to constants, canonical.
DtypeRef dtypeOf(const Index &index, const py::Expr &e, std::string_view function);

/// Best-effort dtype of a host tensor expression: a `.half()`/`.to(torch.X)` cast or a
/// factory's `dtype=` in the chain that produced it, following names, `self.` attributes
/// set in any method of the class, and parameters back to the callers of the function.
struct HostDtype {
  DtypeRef target;
  std::string function;
  LineRange lines;
};
std::optional<HostDtype> hostDtypeOf(const Index &index, const py::Expr &e, std::string_view function);

} // namespace kbaudit::triton::detail
