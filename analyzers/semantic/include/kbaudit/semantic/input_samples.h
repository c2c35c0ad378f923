#pragma once

// Reads of a fixed-size sample of a function's input values, reduced to a statistic: the
// question RUB006 asks before it follows the statistic into a branch. A checker's stress inputs
// and a benchmark's random inputs differ in distribution, and a look at a prefix is enough to
// tell them apart.

#include "kbaudit/facts.h"

#include <set>
#include <string>
#include <vector>

namespace kbaudit::semantic {

/// Statistics that describe the values' magnitude or health (abs, amax, norm, isnan, ...) are
/// strong; a bare max/min, mean, sum or any/all may be routing metadata and is weak.
enum class SampleStrength { None, Weak, Strong };

struct InputSample {
  SampleStrength strength = SampleStrength::None;
  std::string what; ///< "x.flatten()[:8192].abs().max()", or the detector kernel read back
  std::string function;
  LineRange lines; ///< the statistic's call (for a kernel, the host read of its result)
};

/// In `functions`: a statistic call over a constant window of an input (`x[:256].abs().max()`,
/// `torch.amax(x.flatten()[:8192])`), where an input is a parameter or a local bound to a chain
/// rooted in one (`flat = x.reshape(-1)`); and a Triton kernel with no program id, no loop and no
/// matmul that reduces what it loads (one fixed window), launched on an input, whose output
/// buffer is read back on the host (`.item()`, `.tolist()`, `.cpu()`, ...).
std::vector<InputSample> inputSamples(const Facts &facts, const std::set<std::string> &functions);

} // namespace kbaudit::semantic
