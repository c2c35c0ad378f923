#pragma once

// Inline PTX: an asm statement whose every instruction the CPU runner emulates is rewritten into
// C++ over the runtime's cudacpu/ptx.h (registers as bit containers, the statement's operands
// bound by reference); otherwise the instructions it cannot run are named by family.

#include "passes.h"

#include <string>
#include <vector>

namespace kbaudit::cudacpu {

/// The family an opcode is named by: "mma.sync", "ldmatrix.sync", "cp.async",
/// "cp.async.bulk.tensor", "wgmma.mma_async".
std::string ptxFamily(const std::string &opcode);

struct AsmTranslation {
  bool translated = false;
  std::string code;                     ///< the C++ statement replacing the asm statement
  std::vector<std::string> unsupported; ///< families of the instructions it cannot emulate
};

/// Translates the asm statement tokens[asmToken .. close] (`open` is its `(`) whose template
/// reads `text`.
AsmTranslation translateAsm(const PassContext &ctx, std::size_t asmToken, std::size_t open, std::size_t close,
                            const std::string &text);

} // namespace kbaudit::cudacpu
