#pragma once

// How a finding quotes a fact that has no expression tree, only its spelling (a Triton dot's
// argument, a PTX instruction, a decorator, an imported name's use), and the semantic layer's
// own prose about compiled code. For messages only: no decision may rest on these; a rule that
// needs to know something about such a fact asks a question of the fact's structure.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/compiled_evidence.h"

#include <string>

namespace kbaudit::semantic {

/// One line, runs of white space collapsed, at most `max` bytes (as semantic::quote does for
/// an expression).
std::string quote(const triton::DotArg &a, std::size_t max = 120);
std::string quote(const triton::DotOperand &op, std::size_t max = 120);
std::string quote(const py::Decorator &d, std::size_t max = 120);
std::string quote(const py::NameRef &r, std::size_t max = 120);
/// The instruction rebuilt from its opcode and modifiers ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32").
std::string quote(const cxx::PtxInstruction &p);

/// The compiled-code evidence as the semantic layer words it ("compiled for sm_90a: `...`
/// (bf16 operands, fp32 accumulator) x8 in k"); empty when there is none to quote.
const std::string &describe(const CompiledEvidence &ce);
const std::string &describe(const CompiledMma &m);

} // namespace kbaudit::semantic
