#pragma once

// Which floating dtype a host-side call converts a tensor to or allocates it in, for the
// rules that compare the precision of two code paths (PREC005, RUB005, RUB006): they must
// read `x.half()`, `x.to(torch.bfloat16)` and `torch.empty(..., dtype=torch.float8_e4m3fn)`
// the same way.

#include "kbaudit/facts.h"

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::semantic::floatcast {

/// A canonical dtype (problems::canonicalDtype) that is floating point: fp*, bf16, tf32.
bool isFloatDtype(std::string_view canonical);

struct HostCast {
  std::string dtype;       ///< canonical floating dtype
  bool conversion = false; ///< converts existing values (`.half()`, `.to(...)`), not a `dtype=` factory
};

/// `x.half()`, `x.to(torch.float8_e4m3fn)`, `x.type(torch.half)`, `torch.empty_like(x, dtype=torch.bfloat16)`;
/// nullopt when the call names no floating dtype.
std::optional<HostCast> hostCast(const py::Call &c);

/// The canonical dtype a conversion call converts its receiver to, following a Name's
/// module-level binding: `x.half()`, `x.bfloat16()`, `x.to(torch.bfloat16)`,
/// `x.to(device, dtype=DT)`, `x.type(torch.cuda.HalfTensor)` (any positional argument naming a
/// dtype); "" for other calls, kernel launches, and dtypes not statically known. Any dtype,
/// floating or not. Why: PREC001 asks it of the solution and of the reference alike, so what
/// the reference itself narrows to counts as part of the contract.
std::string conversionTarget(const py::PythonFacts &py, const py::Call &c);

} // namespace kbaudit::semantic::floatcast
