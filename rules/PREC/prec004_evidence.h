#pragma once

// Where a solution computes a low-precision contract in a wider type (the widening sites)
// and where it does use the contract's own instruction class, for PREC004.

#include "kbaudit/facts.h"

#include <string>
#include <vector>

namespace kbaudit::rules {

struct Widening {
  LineRange lines;
  std::string wideType; ///< "bf16", "fp16", "fp32"
  std::string how;      ///< "the Triton kernel casts tl.dot operands", ...
  std::string detail;   ///< the construct as written
  /// Seen in Python only (forward casting its inputs); kernel code may still hold the
  /// promised instructions where kbaudit could not recover it.
  bool pythonSide = false;
};

struct BypassEvidence {
  /// Compute on the contract's operands in a wider type, in source order.
  std::vector<Widening> widenings;
  /// Compute that does use the contract precision (fp8 MMA, in-kernel int4 unpack).
  std::vector<Widening> lowPrecisionCompute;
};

BypassEvidence fp8Evidence(const Facts &facts);
BypassEvidence int4Evidence(const Facts &facts);

} // namespace kbaudit::rules
