#pragma once

// The arms of an `if` statement and the numeric work each arm does, so a rule can ask "do the
// sides of this dispatch compute at the same precision" (RUB005 shape-gated numerics, RUB006
// input-distribution sniffing) or "does this arm do any work at all" (RUB004).

#include "kbaudit/facts.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// The line ranges of the arms of an `if`/`elif` statement: the branch's own block, each
/// later `elif` block and the `else` block. An `if` without `else` gets an empty arm (the
/// path that skips the block), or, when its block returns, the rest of the function (the
/// path taken otherwise). Other branch kinds yield no arms. Read from Branch::arms.
std::vector<LineRange> armsOf(const Facts &facts, const py::Branch &branch);

/// A floating dtype (or a lowered matmul precision such as "tf32") used by some code.
struct DtypeUse {
  std::string dtype; ///< canonical ("fp8e4m3", "fp16", "tf32")
  std::string note;  ///< "casts to fp16 (line 12)"
};

/// The numeric work on some lines of one function, following calls into the file's own
/// helpers one level deep.
struct ArmWork {
  std::vector<DtypeUse> dtypes;       ///< host casts, casts in launched kernels, tf32 dots
  std::set<std::string> kernels;      ///< Triton kernels / extension functions started
  std::vector<std::string> notes;     ///< what the arm runs, for messages
  bool library = false;               ///< a heavy torch/library op (matmul, conv, ...)
  bool anyCall = false;               ///< the arm calls something other than an exception

  std::set<std::string> dtypeSet() const;
};

ArmWork workIn(const Facts &facts, const std::string &function, LineRange lines);

/// Bits of a canonical dtype, with "tf32" counted as 19 (its mantissa is that of fp16).
unsigned precisionBits(std::string_view dtype);

/// What one arm of a branch does, for RUB004 (call-count gating): whether it computes, how
/// (torch operators or an authored kernel), whether it only reads stored state, and whether it
/// is one-time setup (compiling, autotuning, capturing a graph, timing configurations).
struct ArmEffects {
  bool computes = false;  ///< launches a kernel, calls a library op or uses `@`
  bool library = false;   ///< a heavy torch/library op (the reference's own arithmetic)
  bool kernel = false;    ///< an authored kernel or extension function
  bool readsState = false;///< reads self attributes or module state without computing
  bool torchMath = false; ///< computes through torch operators rather than an authored kernel
  bool assigns = false;   ///< changes some state
  bool setup = false;     ///< makes the first calls differ without changing the result
};
ArmEffects effectsOf(const Facts &facts, const std::string &function, LineRange arm);

} // namespace kbaudit::semantic
