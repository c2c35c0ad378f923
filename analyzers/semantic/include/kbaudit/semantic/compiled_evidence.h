#pragma once

// What the compiled kernels say about a source-level precision site: whether the kernels that
// run a function really issue an MMA on a dtype, convert to it or compute in it. Rules ask this
// instead of reading compiled facts themselves; with no compiled unit for the source (not asked
// for, or not compiled, with why) the answer is NotCompiled and the source facts stand.

#include "kbaudit/facts.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

enum class CompiledUse {
  MmaOperand, ///< a tensor-core MMA takes the dtype as an A/B operand
  Arithmetic, ///< arithmetic instructions in the dtype (fma.rn.f16x2, mul.f16)
};

enum class CompiledState {
  NotCompiled,  ///< no compiled evidence: the source facts stand (`text` says why)
  Confirmed,    ///< a compiled kernel that runs the function issues it (`text` quotes it)
  Absent,       ///< the unit compiled and nothing in it uses the dtype (no MMA, conversion or arithmetic)
  Inconclusive, ///< the unit uses the dtype, but no kernel known to run the function does it this way
};

struct CompiledEvidence {
  CompiledState state = CompiledState::NotCompiled;
  /// For the annotation: "compiled for sm_90a: `wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32`
  /// (fp16 operands, fp32 accumulator) x1 in gemm_wmma"; or why there is no such evidence.
  std::string text;
  /// The confirming MMA's accumulator dtype ("fp32", "fp16"), "" when not an MMA or unnamed.
  std::string accumulator;
};

/// `source`: index into EmbedFacts::sources; `function`: the Clang front end's qualified name of
/// the enclosing function ("" at namespace scope: every kernel of the unit); `dtype` canonical.
CompiledEvidence compiledUse(const Facts &facts, int source, const std::string &function, const std::string &dtype,
                             CompiledUse use);

/// One MMA of a compiled kernel, with the Clang kernel it was compiled from.
struct CompiledMma {
  const compiled::CompiledUnit *unit = nullptr;
  const compiled::CompiledKernel *kernel = nullptr;
  const compiled::MmaUse *mma = nullptr;
  /// The kernel's definition in solution.py (invalid when the Clang front end has no kernel of
  /// that name in the unit's sources).
  LineRange lines;
  /// forward reaches the kernel (the kernel inventory); false also when kbaudit cannot tell.
  bool reached = false;
  std::string text; ///< "compiled for sm_90a: `...` (bf16 operands, fp32 accumulator) x8 in k"
};

/// Every MMA of every compiled kernel, in unit order.
std::vector<CompiledMma> compiledMmas(const Facts &facts);

/// The Clang functions (qualified names) a compiled kernel runs: itself and what it calls.
std::vector<std::string> kernelReach(const Facts &facts, const std::string &kernel);

/// "fp16 operands, fp32 accumulator".
std::string describeMma(const compiled::MmaUse &m);

} // namespace kbaudit::semantic
