#include "ptx.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>

namespace kbaudit::cxx::ptx {

namespace {

using llvm::StringRef;

/// Drops // and /* */ comments; PTX uses C++ comment syntax.
std::string stripComments(StringRef s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s.substr(i).startswith("//")) {
      const size_t nl = s.find('\n', i);
      i = nl == StringRef::npos ? s.size() : nl;
      continue;
    }
    if (s.substr(i).startswith("/*")) {
      const size_t end = s.find("*/", i + 2);
      i = end == StringRef::npos ? s.size() : end + 2;
      out += ' ';
      continue;
    }
    out += s[i++];
  }
  return out;
}

std::string unescapePercent(StringRef s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (s[i] == '%' && i + 1 < s.size() && s[i + 1] == '%')
      ++i;
  }
  return out;
}

/// Statements end at ';'. A brace at the start of a statement opens or closes a scope
/// (`{ .reg .pred p; ... }`) and is dropped; inside a statement it belongs to an operand
/// vector (`{%0, %1}`). Newlines are whitespace: instructions may span lines.
llvm::SmallVector<StringRef, 8> statements(StringRef s) {
  llvm::SmallVector<StringRef, 8> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    const bool atEnd = i == s.size();
    const char c = atEnd ? ';' : s[i];
    if ((c == '{' || c == '}') && s.slice(start, i).trim().empty()) {
      start = i + 1;
      continue;
    }
    if (c != ';')
      continue;
    const StringRef stmt = s.slice(start, i).trim();
    if (!stmt.empty())
      out.push_back(stmt);
    start = i + 1;
  }
  return out;
}

} // namespace

bool isType(StringRef m) {
  static const StringRef kTypes[] = {
      "f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64", "e4m3", "e5m2", "e4m3x2",
      "e5m2x2", "e4m3x4", "e5m2x4", "e2m1", "e2m1x2", "e3m2", "e2m3", "e3m2x2", "e2m3x2",
      "ue8m0", "ue8m0x2", "ue4m3", "s4", "u4", "s8", "u8", "s16", "u16", "s32", "u32", "s64",
      "u64", "b1", "b4", "b6", "b8", "b16", "b32", "b64", "b128", "pred", "f8f6f4", "mxf8f6f4",
      "mxf4", "mxf4nvf4", "s8x4", "u8x4", "s16x2", "u16x2", "f32x2",
  };
  return llvm::is_contained(kTypes, m);
}

std::vector<Instruction> split(StringRef asmText) {
  std::vector<Instruction> out;
  const std::string text = stripComments(asmText);
  for (StringRef stmt : statements(text)) {
    Instruction ins;
    if (stmt.startswith("@")) {
      const size_t sp = stmt.find_first_of(" \t");
      if (sp == StringRef::npos)
        continue;
      ins.guard = stmt.take_front(sp).str();
      stmt = stmt.drop_front(sp).ltrim();
    }
    // Labels ("L_loop:") may prefix an instruction.
    const size_t colon = stmt.find(':');
    if (colon != StringRef::npos && colon > 0 &&
        llvm::all_of(stmt.take_front(colon), [](char c) {
          return llvm::isAlnum(c) || c == '_' || c == '$';
        }))
      stmt = stmt.drop_front(colon + 1).ltrim();
    // Directives (.reg, .shared, .pragma) declare, they do not execute.
    if (stmt.empty() || stmt.front() == '.')
      continue;
    const size_t ws = stmt.find_first_of(" \t\r\n");
    const StringRef head = stmt.take_front(ws);
    if (head.empty() || !llvm::isAlpha(head.front()))
      continue;
    ins.text = head.str();
    llvm::SmallVector<StringRef, 8> parts;
    head.split(parts, '.', -1, /*KeepEmpty=*/false);
    ins.opcode = parts.front().str();
    for (StringRef p : llvm::drop_begin(parts)) {
      ins.modifiers.push_back(p.str());
      if (isType(p))
        ins.types.push_back(p.str());
    }
    if (ws != StringRef::npos) {
      // Collapse the whitespace asm strings carry across lines.
      std::string ops;
      bool space = false;
      for (char c : stmt.drop_front(ws).trim()) {
        const bool isSpace = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (isSpace) {
          space = true;
          continue;
        }
        if (space && !ops.empty())
          ops += ' ';
        space = false;
        ops += c;
      }
      ins.operands = unescapePercent(ops);
    }
    out.push_back(std::move(ins));
  }
  return out;
}

} // namespace kbaudit::cxx::ptx
