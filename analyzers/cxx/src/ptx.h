#pragma once

// Splits the text of an inline `asm` statement into PTX instructions. Pure text logic: the
// asm string comes from Clang after preprocessing and literal concatenation.

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kbaudit::cxx::ptx {

struct Instruction {
  std::string text;     ///< "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  std::string opcode;   ///< "mma"
  std::vector<std::string> modifiers;
  std::vector<std::string> types;
  std::string operands;
  std::string guard;    ///< "@p", "@!p"
};

/// Instructions in order. Directives (`.reg .f32 t;`), labels, braces and comments are
/// skipped; `%%` (the GCC escape for a literal `%`) is unescaped in operands.
std::vector<Instruction> split(llvm::StringRef asmText);

/// True for the PTX fundamental type suffixes (f16, bf16x2, tf32, e4m3, s8, b32, pred, ...).
bool isType(llvm::StringRef modifier);

} // namespace kbaudit::cxx::ptx
