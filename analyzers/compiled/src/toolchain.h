#pragma once

// Finding nvcc, ptxas, torch's and Python's headers, once per process.

#include "kbaudit/compiled/compile.h"

#include <string>

namespace kbaudit::compiled {

struct Toolchain {
  std::string nvcc, ptxas;   ///< absolute paths; "" when not found
  std::string version;       ///< "nvcc 13.0, V13.0.88"
  std::string error;         ///< why there is no usable nvcc
  std::string torchInclude;  ///< "" when not found
  std::string torchVersion;  ///< torch/version.py's __version__, "" when unknown
  std::string pythonInclude; ///< "" when not found
};

const Toolchain &toolchainFor(const CompileOptions &options);

} // namespace kbaudit::compiled
