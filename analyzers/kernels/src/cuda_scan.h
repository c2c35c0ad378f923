#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::kernels {

/// What a token-level scan of C++/CUDA text finds. Lines are 1-indexed in the text.
struct CudaScan {
  struct Item {
    std::string name;
    unsigned line = 0;
  };
  std::vector<Item> globals;   ///< __global__ function definitions/declarations
  std::vector<Item> inlineAsm; ///< asm / __asm__ statements
};

/// Scans code, skipping comments, string and character literals (raw strings included),
/// so a kernel mentioned in a comment or a string is not counted.
CudaScan scanCuda(std::string_view text);

} // namespace kbaudit::kernels
