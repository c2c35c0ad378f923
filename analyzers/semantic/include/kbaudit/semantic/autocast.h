#pragma once

// `torch.autocast` regions: inside one, every autocast-eligible op (matmuls, convolutions,
// linear layers) runs in fp16 or bf16 whatever its inputs' dtype. PREC001 reports one whose
// dtype is below the problem's contract.

#include "kbaudit/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// torch.autocast and its aliases (`torch.amp.autocast`, `torch.cuda.amp.autocast`,
/// `torch.cpu.amp.autocast`, `torch.amp.autocast_mode.autocast`), by resolved name.
bool isAutocast(std::string_view resolved);

struct AutocastSite {
  const py::Call *call = nullptr;
  /// The function whose work runs under it: the decorated function for `@torch.autocast(...)`,
  /// else the function holding the `with`.
  std::string owner;
  /// Canonical dtype: the `dtype` argument, else the device's default (bf16 on CPU, fp16
  /// otherwise); "" when a `dtype` is given but not statically known.
  std::string dtype;
};

/// Every autocast call of the file that is not statically disabled (`enabled=False`).
std::vector<AutocastSite> autocastSites(const py::PythonFacts &py);

} // namespace kbaudit::semantic
