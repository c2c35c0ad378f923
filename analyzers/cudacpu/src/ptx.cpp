// Inline PTX to C++. The asm statement's operands (`"=r"(x)`, `"l"(p)`, ...) are bound once
// (`auto &&cudacpu_p0 = (x);`), its `.reg` declarations become locals, and each instruction one
// statement over the runtime's cudacpu/ptx.h, guarded by its predicate where it has one. What is
// emulated: barriers 0 and fences; cp.async (done at issue) with its commits and waits; loads,
// stores, red/atom on global, shared and generic memory; mov (packing, special registers), cvt
// between f32, f16, bf16, fp8 and integers, cvta; f32 and f16x2/bf16x2 arithmetic and the
// approximate functions; integer and bit operations (prmt, lop3, bfe, bfi, shf); setp/selp; shfl,
// vote, activemask; createpolicy, prefetch; and the warp-wide ldmatrix, stmatrix and mma.sync
// (m16n8k8/k16 f16/bf16, m16n8k32 8-bit). Everything else (wgmma, tcgen05, mbarrier, TMA's
// cp.async.bulk, clusters, named barriers with thread counts, ...) is named as unavailable.

#include "ptx.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace kbaudit::cudacpu {

namespace {

std::string trim(const std::string &s, const char *chars = " \t\r\n") {
  const auto b = s.find_first_not_of(chars);
  if (b == std::string::npos)
    return "";
  const auto e = s.find_last_not_of(chars);
  return s.substr(b, e - b + 1);
}

bool startsWith(const std::string &s, const std::string &p) { return s.rfind(p, 0) == 0; }
bool has(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep))
    out.push_back(cur);
  return out;
}

/// Splits at `sep` outside (), [] and {}.
std::vector<std::string> splitTop(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    if (c == sep && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !out.empty())
    out.push_back(trim(cur));
  return out;
}

std::string bits64Or32(bool is64, const std::string &e) {
  return std::string("::cudacpu::ptx::") + (is64 ? "f64(" : "f32(") + e + ")";
}

/// One instruction: an optional predicate guard, the opcode, its operands.
struct Instruction {
  std::string guard; ///< "p" or "!p", "" when unguarded
  std::string opcode;
  std::vector<std::string> operands;
};

/// The template's statements (`;` ends one; braces only scope `.reg` declarations), with the
/// `.reg` declarations set aside into `regs` (name -> bits, 1 for .pred).
bool parseTemplate(const std::string &text, std::vector<Instruction> &out, std::map<std::string, int> &regs) {
  std::string cleaned;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 1 < text.size() && text[i + 1] == '%') { // the template's escaped %
      cleaned += '%';
      ++i;
      continue;
    }
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') { // a PTX comment
      while (i < text.size() && text[i] != '\n')
        ++i;
      continue;
    }
    cleaned += text[i] == '\n' ? ' ' : text[i];
  }
  for (std::string stmt : split(cleaned, ';')) {
    // Scope braces open or close around statements ("{ .reg ...", "}"); an operand's braces
    // ({%0, %1}) are balanced within it.
    stmt = trim(stmt);
    while (!stmt.empty() && (stmt[0] == '{' || stmt[0] == '}'))
      stmt = trim(stmt.substr(1));
    auto unbalanced = [&] {
      int depth = 0;
      for (char c : stmt)
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      return depth < 0;
    };
    while (!stmt.empty() && stmt.back() == '}' && unbalanced())
      stmt = trim(stmt.substr(0, stmt.size() - 1));
    if (stmt.empty())
      continue;
    // A label ("L1:") is not supported (no branches are emulated).
    if (const auto colon = stmt.find(':'); colon != std::string::npos && colon > 0 &&
                                           stmt.find_first_of(" \t.") > colon &&
                                           (colon + 1 >= stmt.size() || stmt[colon + 1] != ':'))
      return false;
    if (stmt[0] == '.') {
      // .reg .b32 a, b<4>;   .reg .pred p;
      std::istringstream in(stmt);
      std::string directive, type;
      in >> directive >> type;
      if (directive != ".reg")
        return false;
      std::string rest;
      std::getline(in, rest);
      int bits = type == ".pred" ? 1 : type.size() > 2 && std::isdigit(static_cast<unsigned char>(type.back())) ? std::atoi(type.c_str() + 2) : 32;
      if (bits == 0)
        bits = std::atoi(type.c_str() + 3);
      for (std::string name : splitTop(rest, ',')) {
        name = trim(name);
        if (const auto lt = name.find('<'); lt != std::string::npos) {
          const int n = std::atoi(name.c_str() + lt + 1);
          for (int k = 0; k < n; ++k)
            regs[name.substr(0, lt) + std::to_string(k)] = bits;
        } else if (!name.empty()) {
          regs[name] = bits;
        }
      }
      continue;
    }
    Instruction ins;
    if (stmt[0] == '@') {
      const auto space = stmt.find_first_of(" \t");
      if (space == std::string::npos)
        return false;
      ins.guard = stmt.substr(1, space - 1);
      stmt = trim(stmt.substr(space));
    }
    const auto space = stmt.find_first_of(" \t");
    ins.opcode = space == std::string::npos ? stmt : stmt.substr(0, space);
    if (space != std::string::npos)
      for (const std::string &op : splitTop(stmt.substr(space), ','))
        ins.operands.push_back(op);
    out.push_back(ins);
  }
  return true;
}

/// The asm statement's operands: constraint and C++ expression text, outputs first.
struct AsmOperand {
  std::string constraint;
  std::string expression;
};

bool parseOperands(const PassContext &ctx, std::size_t open, std::size_t close, std::vector<AsmOperand> &out) {
  const std::vector<Token> &tokens = ctx.tokens;
  std::size_t i = open + 1;
  while (i < close && tokens[i].kind == TokenKind::String)
    ++i;
  int section = 0; // 0 template, 1 outputs, 2 inputs, 3 clobbers
  while (i < close) {
    if (tokens[i].is(":") || tokens[i].is("::")) { // `::` is two separators (no outputs)
      section += tokens[i].is("::") ? 2 : 1;
      ++i;
      continue;
    }
    if (tokens[i].is(","))
      ++i;
    if (i >= close)
      break;
    if (section >= 3) { // clobbers
      ++i;
      continue;
    }
    if (tokens[i].kind != TokenKind::String)
      return false;
    std::string constraint(tokens[i].text.substr(1, tokens[i].text.size() - 2));
    ++i;
    if (i >= close || !tokens[i].is("("))
      return false;
    const std::size_t end = matching(tokens, i);
    if (end > close)
      return false;
    out.push_back({constraint, std::string(ctx.source.substr(tokens[i].offset, tokens[end].end() - tokens[i].offset))});
    i = end + 1;
  }
  return true;
}

/// Emits one instruction; nullopt when it is not emulated.
class Emitter {
public:
  Emitter(const std::vector<AsmOperand> &ops, const std::map<std::string, int> &regs) : ops_(ops), regs_(regs) {}

  std::optional<std::string> emit(const Instruction &ins);

private:
  static constexpr const char *P = "::cudacpu::ptx::";

  /// A readable operand as a C++ expression of its `bits`-wide bit pattern.
  std::optional<std::string> read(const std::string &op, int bits) const {
    const std::string fn = std::string(P) + (bits == 64 ? "b64" : bits == 16 ? "b16" : "b32");
    if (op.size() > 1 && op[0] == '%' && std::isdigit(static_cast<unsigned char>(op[1]))) {
      const std::size_t n = static_cast<std::size_t>(std::atoi(op.c_str() + 1));
      if (n >= ops_.size())
        return std::nullopt;
      return fn + "(cudacpu_p" + std::to_string(n) + ")";
    }
    if (op[0] == '%')
      return special(op);
    if (regs_.count(op))
      return fn + "(cudacpu_r_" + op + ")";
    if (startsWith(op, "0f") && op.size() == 10)
      return "(std::uint32_t)0x" + op.substr(2) + "u";
    if (startsWith(op, "0d") && op.size() == 18)
      return "(std::uint64_t)0x" + op.substr(2) + "ull";
    if (std::isdigit(static_cast<unsigned char>(op[0])) || op[0] == '-') {
      if (op.find('.') != std::string::npos || op.find('e') != std::string::npos)
        return bits == 64 ? std::string(P) + "u64(" + op + ")" : std::string(P) + "u32(" + op + "f)";
      return "(std::uint" + std::to_string(bits == 16 ? 16 : bits) + "_t)(" + op + ")";
    }
    return std::nullopt;
  }
  std::optional<std::string> special(const std::string &op) const {
    static const std::map<std::string, std::string> table = {
        {"%laneid", "::cudacpu::ptx::laneid()"},
        {"%warpid", "::cudacpu::ptx::warpid()"},
        {"%smid", "0u"},
        {"%nsmid", "132u"},
        {"%tid.x", "threadIdx.x"},
        {"%tid.y", "threadIdx.y"},
        {"%tid.z", "threadIdx.z"},
        {"%ntid.x", "blockDim.x"},
        {"%ntid.y", "blockDim.y"},
        {"%ntid.z", "blockDim.z"},
        {"%ctaid.x", "blockIdx.x"},
        {"%ctaid.y", "blockIdx.y"},
        {"%ctaid.z", "blockIdx.z"},
        {"%nctaid.x", "gridDim.x"},
        {"%nctaid.y", "gridDim.y"},
        {"%nctaid.z", "gridDim.z"},
        {"%clock", "(std::uint32_t)clock64()"},
        {"%clock64", "(std::uint64_t)clock64()"},
        {"%globaltimer", "(std::uint64_t)__globaltimer()"},
        {"%lanemask_lt", "__lanemask_lt()"},
        {"%lanemask_le", "__lanemask_le()"},
        {"%lanemask_gt", "__lanemask_gt()"},
        {"%lanemask_ge", "__lanemask_ge()"},
        {"%lanemask_eq", "__lanemask_eq()"},
        {"%dynamic_smem_size", "0u"},
        {"%total_smem_size", "0u"},
    };
    const auto it = table.find(op);
    if (it == table.end())
      return std::nullopt;
    return it->second;
  }
  /// A statement that stores `value` into a writable operand.
  std::optional<std::string> write(const std::string &op, const std::string &value) const {
    if (op.size() > 1 && op[0] == '%' && std::isdigit(static_cast<unsigned char>(op[1]))) {
      const std::size_t n = static_cast<std::size_t>(std::atoi(op.c_str() + 1));
      if (n >= ops_.size())
        return std::nullopt;
      return std::string(P) + "set(cudacpu_p" + std::to_string(n) + ", " + value + "); ";
    }
    if (regs_.count(op))
      return "cudacpu_r_" + op + " = " + (regs_.at(op) == 1 ? "(bool)(" : "(" + regType(regs_.at(op)) + ")(") + value + "); ";
    if (op == "_")
      return std::string("(void)(") + value + "); ";
    return std::nullopt;
  }
  static std::string regType(int bits) {
    return bits == 1 ? "bool" : bits <= 16 ? "std::uint16_t" : bits <= 32 ? "std::uint32_t" : "std::uint64_t";
  }
  /// A predicate operand as a C++ bool.
  std::optional<std::string> predicate(const std::string &op) const {
    const bool negated = !op.empty() && op[0] == '!';
    const std::string name = negated ? op.substr(1) : op;
    std::string v;
    if (regs_.count(name))
      v = "cudacpu_r_" + name;
    else if (auto r = read(name, 32))
      v = "(" + *r + " != 0)";
    else
      return std::nullopt;
    return negated ? "!" + v : v;
  }
  /// `[x]`, `[x+8]`, `[x + -8]`: the address's bits (64) and byte offset.
  std::optional<std::pair<std::string, std::string>> address(const std::string &op) const {
    if (op.size() < 3 || op.front() != '[' || op.back() != ']')
      return std::nullopt;
    std::string inner = trim(op.substr(1, op.size() - 2));
    std::string offset = "0";
    if (const auto plus = inner.find('+'); plus != std::string::npos) {
      offset = trim(inner.substr(plus + 1));
      inner = trim(inner.substr(0, plus));
    }
    auto base = read(inner, 64);
    if (!base)
      return std::nullopt;
    for (char c : offset)
      if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == 'x' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
        return std::nullopt;
    return std::make_pair(*base, offset);
  }
  /// The vector `{a, b, c}` (a single operand is a vector of one).
  static std::vector<std::string> items(const std::string &op) {
    if (op.size() >= 2 && op.front() == '{' && op.back() == '}')
      return splitTop(op.substr(1, op.size() - 2), ',');
    return {op};
  }
  /// A pointer (char *) to memory of the instruction's state space at an address operand.
  std::optional<std::string> pointer(const std::string &opcode, const std::string &op) const {
    const auto a = address(op);
    if (!a)
      return std::nullopt;
    if (has(opcode, ".shared"))
      return "((char *)" + std::string(P) + "fromShared(" + a->first + " + (" + a->second + ")))";
    return "((char *)" + std::string(P) + "global(" + a->first + ") + (" + a->second + "))";
  }

  std::optional<std::string> loadStore(const Instruction &ins, bool load);
  std::optional<std::string> atomic(const Instruction &ins);
  std::optional<std::string> convert(const Instruction &ins);
  std::optional<std::string> arithmetic(const Instruction &ins);
  std::optional<std::string> matrix(const Instruction &ins);

  const std::vector<AsmOperand> &ops_;
  const std::map<std::string, int> &regs_;
};

/// The element type suffix of an opcode and its width in bits ("f32" -> 32), or 0.
int typeBits(const std::string &type) {
  if (type == "pred")
    return 1;
  if (type.size() < 2)
    return 0;
  if (type == "f16x2" || type == "bf16x2")
    return 32;
  if (type == "bf16")
    return 16;
  const char k = type[0];
  if (k != 'b' && k != 'u' && k != 's' && k != 'f')
    return 0;
  return std::atoi(type.c_str() + 1);
}

std::string lastPart(const std::string &opcode) {
  const auto dot = opcode.rfind('.');
  return dot == std::string::npos ? opcode : opcode.substr(dot + 1);
}

std::optional<std::string> Emitter::loadStore(const Instruction &ins, bool load) {
  const std::string &op = ins.opcode;
  const std::string type = lastPart(op);
  const int bits = typeBits(type);
  if (bits < 8 || bits > 64 || ins.operands.size() < 2)
    return std::nullopt;
  const bool isSigned = type[0] == 's';
  const std::string value = load ? ins.operands[0] : ins.operands[1];
  const std::string where = load ? ins.operands[1] : ins.operands[0];
  const auto ptr = pointer(op, where);
  if (!ptr)
    return std::nullopt;
  const std::vector<std::string> regs = items(value);
  const std::string cType = "std::uint" + std::to_string(bits) + "_t";
  std::string code = "{ char *cudacpu_a = " + *ptr + "; ";
  for (std::size_t k = 0; k < regs.size(); ++k) {
    const std::string at = "cudacpu_a + " + std::to_string(k * static_cast<std::size_t>(bits / 8));
    if (load) {
      std::string v = std::string(P) + "load<" + cType + ">(" + at + ")";
      if (isSigned && bits < 32)
        v = "(std::uint32_t)(std::int32_t)(std::int" + std::to_string(bits) + "_t)" + v;
      const auto w = write(regs[k], v);
      if (!w)
        return std::nullopt;
      code += *w;
    } else {
      const auto r = read(regs[k], bits < 16 ? 32 : bits);
      if (!r)
        return std::nullopt;
      code += std::string(P) + "store<" + cType + ">(" + at + ", (" + cType + ")" + *r + "); ";
    }
  }
  return code + "} ";
}

std::optional<std::string> Emitter::atomic(const Instruction &ins) {
  // red.{space}.{sem}.{scope}.{op}{.noftz}{.vN}.{type} [a], b;  atom.... d, [a], b[, c];
  const std::string &op = ins.opcode;
  const bool red = startsWith(op, "red.");
  const std::string type = lastPart(op);
  const std::vector<std::string> parts = split(op, '.');
  std::string what;
  int vector = 1;
  for (const std::string &p : parts) {
    if (p == "add" || p == "min" || p == "max" || p == "exch" || p == "inc" || p == "dec" || p == "and" || p == "or" ||
        p == "xor" || p == "cas")
      what = p;
    if (p == "v2" || p == "v4")
      vector = p == "v2" ? 2 : 4;
  }
  const std::size_t addrIndex = red ? 0 : 1;
  if (what.empty() || ins.operands.size() < addrIndex + 2)
    return std::nullopt;
  const auto ptr = pointer(op, ins.operands[addrIndex]);
  if (!ptr)
    return std::nullopt;
  std::string code = "{ char *cudacpu_a = " + *ptr + "; ";
  if (type == "f16x2" || type == "bf16x2") {
    if (what != "add")
      return std::nullopt;
    const auto v = read(ins.operands[addrIndex + 1], 32);
    if (!v)
      return std::nullopt;
    std::string call = std::string(P) + "atomicPacked(cudacpu_a, " + *v + ", " + (type == "bf16x2" ? "true" : "false") + ")";
    if (red)
      return code + call + "; } ";
    const auto w = write(ins.operands[0], call);
    return w ? std::optional<std::string>(code + *w + "} ") : std::nullopt;
  }
  const int bits = typeBits(type);
  if (bits != 32 && bits != 64)
    return std::nullopt;
  std::string cType = type[0] == 'f' ? (bits == 64 ? "double" : "float")
                                     : (type[0] == 's' ? "std::int" : "std::uint") + std::to_string(bits) + "_t";
  const int opIndex = what == "add" ? 0 : what == "min" ? 1 : what == "max" ? 2 : what == "exch" ? 3 : -1;
  if (opIndex < 0)
    return std::nullopt; // inc, dec, and, or, xor, cas in PTX form: rare
  const std::vector<std::string> values = items(ins.operands[addrIndex + 1]);
  if (static_cast<int>(values.size()) != vector)
    return std::nullopt;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto v = read(values[k], bits);
    if (!v)
      return std::nullopt;
    std::string value = type[0] == 'f' ? (bits == 64 ? std::string(P) + "f64(" + *v + ")" : std::string(P) + "f32(" + *v + ")")
                                       : "(" + cType + ")" + *v;
    std::string call = std::string(P) + "atomicOp<" + cType + ">(cudacpu_a + " + std::to_string(k * static_cast<std::size_t>(bits / 8)) +
                       ", " + value + ", " + std::to_string(opIndex) + ")";
    if (red || vector > 1) {
      code += call + "; ";
    } else {
      const auto w = write(ins.operands[0], type[0] == 'f' ? std::string(P) + (bits == 64 ? "u64(" : "u32(") + call + ")" : call);
      if (!w)
        return std::nullopt;
      code += *w;
    }
  }
  return code + "} ";
}

std::optional<std::string> Emitter::convert(const Instruction &ins) {
  const std::string &op = ins.opcode;
  if (startsWith(op, "cvta.")) {
    if (ins.operands.size() != 2)
      return std::nullopt;
    const auto a = read(ins.operands[1], 64);
    if (!a)
      return std::nullopt;
    if (startsWith(op, "cvta.to.shared"))
      return write(ins.operands[0], std::string(P) + "toShared((const void *)(" + *a + "))");
    if (startsWith(op, "cvta.shared"))
      return write(ins.operands[0], "(std::uint64_t)" + std::string(P) + "fromShared(" + *a + ")");
    return write(ins.operands[0], *a); // global <-> generic: the same address here
  }
  // cvt{.rnd}{.ftz}{.sat}{.relu}{.satfinite}.dtype.atype d, a[, b]
  const std::vector<std::string> parts = split(op, '.');
  if (parts.size() < 3)
    return std::nullopt;
  const std::string dst = parts[parts.size() - 2], src = parts.back();
  std::string rnd = "rn";
  bool relu = false, satfinite = false, sat = false;
  for (std::size_t k = 1; k + 2 < parts.size(); ++k) {
    if (parts[k] == "rn" || parts[k] == "rz" || parts[k] == "rm" || parts[k] == "rp" || parts[k] == "rni" ||
        parts[k] == "rzi" || parts[k] == "rmi" || parts[k] == "rpi")
      rnd = parts[k];
    relu |= parts[k] == "relu";
    satfinite |= parts[k] == "satfinite";
    sat |= parts[k] == "sat";
  }
  if (sat || relu)
    return std::nullopt;
  const std::string d = ins.operands.empty() ? "" : ins.operands[0];
  auto in = [&](std::size_t k, int bits) { return k < ins.operands.size() ? read(ins.operands[k], bits) : std::nullopt; };
  if (dst == "f16x2" || dst == "bf16x2") {
    if (src == "f32") {
      const auto a = in(1, 32), b = in(2, 32);
      if (!a || !b || rnd != "rn")
        return std::nullopt;
      const std::string f = dst == "f16x2" ? "f32_to_f16" : "f32_to_bf16";
      return write(d, std::string(P) + "pack16(" + P + f + "(" + *b + "), " + P + f + "(" + *a + "))");
    }
    if ((src == "e4m3x2" || src == "e5m2x2") && dst == "f16x2") {
      const auto a = in(1, 16);
      return a ? write(d, std::string(P) + "fp8x2_to_f16x2(" + *a + ", " + (src == "e4m3x2" ? "true" : "false") + ")")
               : std::nullopt;
    }
    return std::nullopt;
  }
  if ((dst == "e4m3x2" || dst == "e5m2x2") && src == "f32" && satfinite) {
    const auto a = in(1, 32), b = in(2, 32);
    return a && b ? write(d, std::string(P) + "f32x2_to_fp8x2(" + *a + ", " + *b + ", " + (dst == "e4m3x2" ? "true" : "false") + ")")
                  : std::nullopt;
  }
  if (src == "f32" && (dst == "f16" || dst == "bf16") && rnd == "rn") {
    const auto a = in(1, 32);
    return a ? write(d, std::string(P) + (dst == "f16" ? "f32_to_f16(" : "f32_to_bf16(") + *a + ")") : std::nullopt;
  }
  if (dst == "f32" && (src == "f16" || src == "bf16")) {
    const auto a = in(1, 16);
    return a ? write(d, std::string(P) + (src == "f16" ? "f16_to_f32(" : "bf16_to_f32(") + *a + ")") : std::nullopt;
  }
  // Between integers and f32/f64.
  const int db = typeBits(dst), sb = typeBits(src);
  if (db < 8 || sb < 8)
    return std::nullopt;
  const auto a = in(1, sb < 32 ? 32 : sb);
  if (!a)
    return std::nullopt;
  auto cTypeOf = [](const std::string &t, int bits) {
    return t[0] == 'f' ? std::string(bits == 64 ? "double" : "float") : (t[0] == 's' ? "std::int" : "std::uint") + std::to_string(bits) + "_t";
  };
  std::string value;
  if (src[0] == 'f')
    value = bits64Or32(src == "f64", *a);
  else
    value = "(" + cTypeOf(src, sb) + ")" + *a;
  std::string converted;
  if (dst[0] == 'f') {
    converted = "(" + cTypeOf(dst, db) + ")(" + value + ")";
    return write(d, std::string(P) + (db == 64 ? "u64(" : "u32(") + converted + ")");
  }
  if (src[0] == 'f') {
    const std::string mode = rnd == "rzi" || rnd == "rz" ? "Zero" : rnd == "rmi" || rnd == "rm" ? "Down" : rnd == "rpi" || rnd == "rp" ? "Up" : "Nearest";
    converted = "::cudacpu::fp::to_int<" + cTypeOf(dst, db) + ">(" + value + ", ::cudacpu::fp::Round::" + mode + ")";
  } else {
    converted = "(" + cTypeOf(dst, db) + ")(" + value + ")";
  }
  return write(d, "(std::uint64_t)(std::int64_t)" + converted);
}

std::optional<std::string> Emitter::arithmetic(const Instruction &ins) {
  const std::string &op = ins.opcode;
  const std::vector<std::string> parts = split(op, '.');
  const std::string name = parts[0], type = lastPart(op);
  const int bits = typeBits(type);
  auto in = [&](std::size_t k, int b) { return k < ins.operands.size() ? read(ins.operands[k], b) : std::nullopt; };
  const std::string d = ins.operands.empty() ? "" : ins.operands[0];
  if (type == "f16x2" || type == "bf16x2") {
    const std::string h = type == "f16x2" ? "__half" : "__nv_bfloat16";
    const auto a = in(1, 32), b = in(2, 32);
    if (!a || !b)
      return std::nullopt;
    const int code = name == "add" ? 0 : name == "sub" ? 1 : name == "mul" ? 2 : name == "max" ? 3 : name == "min" ? 4 : -1;
    if (code >= 0)
      return write(d, std::string(P) + "packed<" + h + ">(" + *a + ", " + *b + ", " + std::to_string(code) + ")");
    if (name == "fma") {
      const auto c = in(3, 32);
      return c ? write(d, std::string(P) + "packedFma<" + h + ">(" + *a + ", " + *b + ", " + *c + ")") : std::nullopt;
    }
    return std::nullopt;
  }
  if (type == "f32") {
    static const std::map<std::string, std::string> unary = {
        {"ex2", "ex2"}, {"lg2", "lg2"}, {"rcp", "rcp"}, {"rsqrt", "rsqrt"}, {"sqrt", "sqrtf32"},
        {"tanh", "tanhf32"}, {"sin", "sinf32"}, {"cos", "cosf32"}};
    if (const auto u = unary.find(name); u != unary.end()) {
      const auto a = in(1, 32);
      return a ? write(d, std::string(P) + u->second + "(" + *a + ")") : std::nullopt;
    }
    if (name == "neg" || name == "abs") {
      const auto a = in(1, 32);
      return a ? write(d, name == "neg" ? "(" + *a + " ^ 0x80000000u)" : "(" + *a + " & 0x7fffffffu)") : std::nullopt;
    }
    static const std::map<std::string, std::string> binary = {
        {"add", "addf"}, {"sub", "subf"}, {"mul", "mulf"}, {"div", "divf"}, {"max", "maxf"}, {"min", "minf"}};
    if (const auto b = binary.find(name); b != binary.end()) {
      const auto x = in(1, 32), y = in(2, 32);
      return x && y ? write(d, std::string(P) + b->second + "(" + *x + ", " + *y + ")") : std::nullopt;
    }
    if (name == "fma" || name == "mad") {
      const auto x = in(1, 32), y = in(2, 32), z = in(3, 32);
      return x && y && z ? write(d, std::string(P) + "fmaf32(" + *x + ", " + *y + ", " + *z + ")") : std::nullopt;
    }
    return std::nullopt;
  }
  if (bits != 16 && bits != 32 && bits != 64)
    return std::nullopt;
  const bool isSigned = type[0] == 's';
  const std::string u = "std::uint" + std::to_string(bits) + "_t", s = "std::int" + std::to_string(bits) + "_t";
  const std::string t = isSigned ? s : u;
  auto cast = [&](const std::string &e) { return "((" + t + ")" + e + ")"; };
  const auto a = in(1, bits), b = in(2, bits), c = in(3, bits);
  if ((name == "add" || name == "sub" || name == "and" || name == "or" || name == "xor" || name == "min" || name == "max") && a && b) {
    std::string e = name == "add" ? cast(*a) + " + " + cast(*b) : name == "sub" ? cast(*a) + " - " + cast(*b)
                    : name == "and" ? *a + " & " + *b : name == "or" ? *a + " | " + *b : name == "xor" ? *a + " ^ " + *b
                    : name == "min" ? "std::min(" + cast(*a) + ", " + cast(*b) + ")" : "std::max(" + cast(*a) + ", " + cast(*b) + ")";
    return write(d, "(" + u + ")(" + e + ")");
  }
  if (name == "not" && a)
    return write(d, "(" + u + ")(~" + *a + ")");
  if (name == "mul" && a && b) {
    if (has(op, ".lo"))
      return write(d, "(" + u + ")(" + cast(*a) + " * " + cast(*b) + ")");
    if (has(op, ".hi") && bits == 32)
      return write(d, isSigned ? "(std::uint32_t)__mulhi((int)" + *a + ", (int)" + *b + ")" : "__umulhi(" + *a + ", " + *b + ")");
    if (has(op, ".wide") && bits == 32)
      return write(d, isSigned ? "(std::uint64_t)((std::int64_t)(std::int32_t)" + *a + " * (std::int32_t)" + *b + ")"
                               : "((std::uint64_t)" + *a + " * " + *b + ")");
    return std::nullopt;
  }
  if (name == "mad" && has(op, ".lo") && a && b && c)
    return write(d, "(" + u + ")(" + cast(*a) + " * " + cast(*b) + " + " + cast(*c) + ")");
  if ((name == "shl" || name == "shr") && bits == 32) {
    const auto n = in(2, 32);
    if (!a || !n)
      return std::nullopt;
    if (name == "shl")
      return write(d, "(" + *n + " > 31u ? 0u : (std::uint32_t)(" + *a + " << " + *n + "))");
    return write(d, isSigned ? "(std::uint32_t)((std::int32_t)" + *a + " >> (" + *n + " > 31u ? 31u : " + *n + "))"
                             : "(" + *n + " > 31u ? 0u : (std::uint32_t)(" + *a + " >> " + *n + "))");
  }
  if (name == "prmt" && bits == 32 && a && b && c && parts.size() == 2)
    return write(d, "__byte_perm(" + *a + ", " + *b + ", " + *c + ")");
  if (name == "lop3" && bits == 32 && a && b && c) {
    const auto lut = in(4, 32);
    return lut ? write(d, std::string(P) + "lop3(" + *a + ", " + *b + ", " + *c + ", " + *lut + ")") : std::nullopt;
  }
  if (name == "bfe" && bits == 32 && a && b && c)
    return write(d, std::string(P) + "bfe(" + *a + ", " + *b + ", " + *c + ", " + (isSigned ? "true" : "false") + ")");
  if (name == "bfi" && bits == 32 && a && b && c) {
    const auto len = in(4, 32);
    return len ? write(d, std::string(P) + "bfi(" + *a + ", " + *b + ", " + *c + ", " + *len + ")") : std::nullopt;
  }
  if (name == "shf" && bits == 32 && a && b && c) {
    const bool left = has(op, ".l."), clamp = has(op, ".clamp");
    return write(d, std::string(left ? "__funnelshift_l" : "__funnelshift_r") + (clamp ? "c(" : "(") + *a + ", " + *b + ", " + *c + ")");
  }
  if (name == "popc" && a)
    return write(d, "(std::uint32_t)__builtin_popcountll(" + *a + ")");
  if (name == "clz" && a && bits == 32)
    return write(d, "(std::uint32_t)__clz((int)" + *a + ")");
  if (name == "brev" && a && bits == 32)
    return write(d, "__brev(" + *a + ")");
  return std::nullopt;
}

std::optional<std::string> Emitter::matrix(const Instruction &ins) {
  const std::string &op = ins.opcode;
  if (startsWith(op, "ldmatrix.sync.aligned.m8n8.") || startsWith(op, "stmatrix.sync.aligned.m8n8.")) {
    const bool load = op[0] == 'l';
    if (!has(op, ".b16") || ins.operands.size() != 2)
      return std::nullopt;
    const int count = has(op, ".x4") ? 4 : has(op, ".x2") ? 2 : has(op, ".x1") ? 1 : 0;
    const bool trans = has(op, ".trans");
    const auto a = address(load ? ins.operands[1] : ins.operands[0]);
    const std::vector<std::string> regs = items(load ? ins.operands[0] : ins.operands[1]);
    if (!count || !a || static_cast<int>(regs.size()) != count)
      return std::nullopt;
    std::string code = "{ std::uint32_t cudacpu_m[4] = {0, 0, 0, 0}; ";
    if (load) {
      code += std::string(P) + "ldmatrix(" + std::to_string(count) + ", " + (trans ? "true" : "false") + ", " + a->first +
              " + (" + a->second + "), cudacpu_m); ";
      for (int k = 0; k < count; ++k) {
        const auto w = write(regs[static_cast<std::size_t>(k)], "cudacpu_m[" + std::to_string(k) + "]");
        if (!w)
          return std::nullopt;
        code += *w;
      }
    } else {
      for (int k = 0; k < count; ++k) {
        const auto r = read(regs[static_cast<std::size_t>(k)], 32);
        if (!r)
          return std::nullopt;
        code += "cudacpu_m[" + std::to_string(k) + "] = " + *r + "; ";
      }
      code += std::string(P) + "stmatrix(" + std::to_string(count) + ", " + (trans ? "true" : "false") + ", " + a->first +
              " + (" + a->second + "), cudacpu_m); ";
    }
    return code + "} ";
  }
  // mma.sync.aligned.m16n8k{8,16,32}.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c
  if (!startsWith(op, "mma.sync.aligned.m16n8k") || !has(op, ".row.col") || has(op, "kind::") || ins.operands.size() != 4)
    return std::nullopt;
  const std::vector<std::string> parts = split(op, '.');
  const std::string shape = parts[3];
  const int k = shape == "m16n8k8" ? 8 : shape == "m16n8k16" ? 16 : shape == "m16n8k32" ? 32 : 0;
  const std::string ctype = parts.back(), btype = parts[parts.size() - 2], atype = parts[parts.size() - 3],
                    dtype = parts[parts.size() - 4];
  if (atype != btype || ctype != dtype)
    return std::nullopt;
  std::string elem;
  if ((atype == "f16" || atype == "bf16") && (k == 8 || k == 16))
    elem = atype == "f16" ? "F16" : "BF16";
  else if ((atype == "e4m3" || atype == "e5m2" || atype == "s8" || atype == "u8") && k == 32)
    elem = atype == "e4m3" ? "E4M3" : atype == "e5m2" ? "E5M2" : atype == "s8" ? "S8" : "U8";
  if (elem.empty() || !(dtype == "f32" || (dtype == "f16" && atype == "f16") || (dtype == "s32" && (atype == "s8" || atype == "u8"))))
    return std::nullopt;
  const bool f16acc = dtype == "f16";
  const std::vector<std::string> d = items(ins.operands[0]), a = items(ins.operands[1]), b = items(ins.operands[2]),
                                 c = items(ins.operands[3]);
  const std::size_t accRegs = f16acc ? 2 : 4;
  if (d.size() != accRegs || c.size() != accRegs)
    return std::nullopt;
  std::string code = "{ std::uint32_t cudacpu_d[4] = {0, 0, 0, 0}, cudacpu_x[4] = {0, 0, 0, 0}, cudacpu_y[2] = {0, 0}, "
                     "cudacpu_c[4] = {0, 0, 0, 0}; ";
  auto fill = [&](const std::vector<std::string> &regs, const std::string &array) -> bool {
    for (std::size_t i = 0; i < regs.size(); ++i) {
      const auto r = read(regs[i], 32);
      if (!r)
        return false;
      code += array + "[" + std::to_string(i) + "] = " + *r + "; ";
    }
    return true;
  };
  if (a.size() > 4 || b.size() > 2 || !fill(a, "cudacpu_x") || !fill(b, "cudacpu_y") || !fill(c, "cudacpu_c"))
    return std::nullopt;
  code += std::string(P) + "mma(" + std::to_string(k) + ", ::cudacpu::ptx::Elem::" + elem + ", " + (f16acc ? "true" : "false") +
          ", cudacpu_d, cudacpu_x, cudacpu_y, cudacpu_c); ";
  for (std::size_t i = 0; i < d.size(); ++i) {
    const auto w = write(d[i], "cudacpu_d[" + std::to_string(i) + "]");
    if (!w)
      return std::nullopt;
    code += *w;
  }
  return code + "} ";
}

std::optional<std::string> Emitter::emit(const Instruction &ins) {
  const std::string &op = ins.opcode;
  std::optional<std::string> code;
  if (op == "bar.sync" || op == "barrier.sync" || op == "bar.sync.aligned" || op == "barrier.sync.aligned" ||
      op == "barrier.cta.sync.aligned" || op == "bar.cta.sync" || op == "barrier.cta.sync" || op == "bar.arrive" ||
      op == "barrier.arrive" || op == "barrier.cta.arrive" || op == "bar.cta.arrive" || op == "barrier.arrive.aligned" ||
      op == "barrier.cta.arrive.aligned") {
    const bool wait = !has(op, "arrive");
    if (ins.operands.size() == 1 && ins.operands[0] == "0" && wait) {
      code = "__syncthreads(); ";
    } else if (ins.operands.size() == 1 || ins.operands.size() == 2) {
      // A named barrier: `count` threads (all of the block without one) meet at barrier `id`.
      const auto id = read(ins.operands[0], 32);
      const auto count = ins.operands.size() == 2 ? read(ins.operands[1], 32) : std::optional<std::string>("0u");
      if (id && count)
        code = "::cudacpu::detail::namedBarrier(" + *id + ", " + *count + ", " + (wait ? "true" : "false") + "); ";
    }
  } else if (startsWith(op, "membar.") || op == "fence.sc.cta" || op == "fence.acq_rel.cta" || op == "fence.sc.gpu" ||
             op == "fence.acq_rel.gpu" || op == "fence.sc.sys" || op == "fence.acq_rel.sys" ||
             startsWith(op, "fence.proxy.async") || op == "cp.async.commit_group" || op == "cp.async.wait_group" ||
             op == "cp.async.wait_all" || startsWith(op, "prefetch.global") || startsWith(op, "prefetchu.") ||
             startsWith(op, "discard.") || op == "nanosleep.u32" || startsWith(op, "applypriority")) {
    code = "";
  } else if (startsWith(op, "cp.async.ca.shared") || startsWith(op, "cp.async.cg.shared")) {
    const bool hint = has(op, "cache_hint");
    const std::size_t n = ins.operands.size() - (hint ? 1 : 0);
    const auto dst = pointer(".shared", n >= 1 ? ins.operands[0] : "");
    const auto src = pointer(".global", n >= 2 ? ins.operands[1] : "");
    const auto size = n >= 3 ? read(ins.operands[2], 32) : std::nullopt;
    const auto srcSize = n >= 4 ? read(ins.operands[3], 32) : size;
    if (dst && src && size && srcSize && n <= 4)
      code = std::string(P) + "copy(" + *dst + ", " + *src + ", " + *size + ", " + *srcSize + "); ";
  } else if (startsWith(op, "ld.") || startsWith(op, "ldu.")) {
    if (!has(op, ".b128") && !has(op, ".param"))
      code = loadStore(ins, true);
  } else if (startsWith(op, "st.")) {
    if (!has(op, ".b128") && !has(op, ".async") && !has(op, ".bulk"))
      code = loadStore(ins, false);
  } else if (startsWith(op, "red.") || startsWith(op, "atom.")) {
    if (!has(op, ".async") && !has(op, ".bulk") && !has(op, "cluster"))
      code = atomic(ins);
  } else if (startsWith(op, "mov.")) {
    const std::string type = lastPart(op);
    const int bits = typeBits(type);
    if (ins.operands.size() == 2 && bits >= 16) {
      const std::vector<std::string> to = items(ins.operands[0]), from = items(ins.operands[1]);
      if (to.size() == 1 && from.size() == 1) {
        if (const auto v = read(from[0], bits))
          code = write(to[0], *v);
      } else if (to.size() == 1 && from.size() >= 2) { // pack
        const int piece = bits / static_cast<int>(from.size());
        std::string v = "(std::uint64_t)0";
        bool ok = piece >= 8;
        for (std::size_t k = 0; k < from.size() && ok; ++k) {
          const auto r = read(from[k], piece <= 16 ? 16 : piece);
          ok = r.has_value();
          if (ok)
            v += " | ((std::uint64_t)" + *r + " << " + std::to_string(static_cast<int>(k) * piece) + ")";
        }
        if (ok)
          code = write(to[0], v);
      } else if (from.size() == 1 && to.size() >= 2) { // unpack
        const int piece = bits / static_cast<int>(to.size());
        const auto r = read(from[0], 64);
        if (r && piece >= 8) {
          std::string all;
          bool ok = true;
          for (std::size_t k = 0; k < to.size() && ok; ++k) {
            const auto w = write(to[k], "((" + *r + " >> " + std::to_string(static_cast<int>(k) * piece) + ") & " +
                                             (piece == 64 ? "~0ull" : "((1ull << " + std::to_string(piece) + ") - 1))"));
            ok = w.has_value();
            if (ok)
              all += *w;
          }
          if (ok)
            code = all;
        }
      }
    }
  } else if (startsWith(op, "cvt.") || startsWith(op, "cvta.")) {
    code = convert(ins);
  } else if (startsWith(op, "createpolicy.")) {
    if (!ins.operands.empty())
      code = write(ins.operands[0], "(std::uint64_t)0");
  } else if (startsWith(op, "setp.")) {
    // setp.cmp.type p[|q], a, b
    const std::vector<std::string> parts = split(op, '.');
    const std::string type = lastPart(op);
    const int bits = typeBits(type);
    if (parts.size() == 3 && ins.operands.size() == 3 && bits >= 16) {
      const std::string cmp = parts[1];
      const auto a = read(ins.operands[1], bits), b = read(ins.operands[2], bits);
      static const std::map<std::string, std::string> ops = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="},
                                                             {"gt", ">"},  {"ge", ">="}, {"lo", "<"}, {"ls", "<="},
                                                             {"hi", ">"},  {"hs", ">="}};
      const auto o = ops.find(cmp);
      if (a && b && o != ops.end()) {
        std::string x = *a, y = *b;
        if (type[0] == 'f') {
          x = std::string(P) + (bits == 64 ? "f64(" : "f32(") + x + ")";
          y = std::string(P) + (bits == 64 ? "f64(" : "f32(") + y + ")";
        } else if (type[0] == 's') {
          x = "(std::int" + std::to_string(bits) + "_t)" + x;
          y = "(std::int" + std::to_string(bits) + "_t)" + y;
        }
        const std::string dst = split(ins.operands[0], '|')[0];
        code = write(trim(dst), "(" + x + " " + o->second + " " + y + ")");
      }
    }
  } else if (startsWith(op, "selp.")) {
    const int bits = typeBits(lastPart(op));
    if (ins.operands.size() == 4 && bits >= 16) {
      const auto a = read(ins.operands[1], bits), b = read(ins.operands[2], bits);
      const auto p = predicate(ins.operands[3]);
      if (a && b && p)
        code = write(ins.operands[0], "(" + *p + " ? " + *a + " : " + *b + ")");
    }
  } else if (startsWith(op, "shfl.sync.") && has(op, ".b32")) {
    // shfl.sync.mode.b32 d[|p], a, b, c, membermask
    if (ins.operands.size() == 5 && !has(ins.operands[0], "|")) {
      const auto a = read(ins.operands[1], 32), b = read(ins.operands[2], 32), c = read(ins.operands[3], 32),
                 m = read(ins.operands[4], 32);
      std::string fn = has(op, ".bfly") ? "__shfl_xor_sync" : has(op, ".idx") ? "__shfl_sync" : has(op, ".down") ? "__shfl_down_sync" : has(op, ".up") ? "__shfl_up_sync" : "";
      const bool plain = ins.operands[3] == "31" || ins.operands[3] == "0x1f" || ins.operands[3] == "0x1F" ||
                         (has(op, ".up") && ins.operands[3] == "0");
      if (a && b && c && m && !fn.empty() && plain)
        code = write(ins.operands[0], fn + "(" + *m + ", " + *a + ", (int)" + *b + ")");
    }
  } else if (startsWith(op, "vote.sync.") || startsWith(op, "vote.")) {
    if (ins.operands.size() >= 2) {
      const auto p = predicate(ins.operands[1]);
      const auto m = ins.operands.size() >= 3 ? read(ins.operands[2], 32) : std::optional<std::string>("0xffffffffu");
      if (p && m) {
        if (has(op, ".ballot"))
          code = write(ins.operands[0], "__ballot_sync(" + *m + ", " + *p + ")");
        else if (has(op, ".any"))
          code = write(ins.operands[0], "(bool)__any_sync(" + *m + ", " + *p + ")");
        else if (has(op, ".all"))
          code = write(ins.operands[0], "(bool)__all_sync(" + *m + ", " + *p + ")");
        else if (has(op, ".uni"))
          code = write(ins.operands[0], "(bool)__uni_sync(" + *m + ", " + *p + ")");
      }
    }
  } else if (op == "activemask.b32") {
    if (ins.operands.size() == 1)
      code = write(ins.operands[0], "__activemask()");
  } else if (op == "trap") {
    code = "__trap(); ";
  } else if (startsWith(op, "ldmatrix.") || startsWith(op, "stmatrix.") || startsWith(op, "mma.sync.")) {
    code = matrix(ins);
  } else {
    code = arithmetic(ins);
  }
  if (!code || ins.guard.empty())
    return code;
  const auto p = predicate(ins.guard);
  if (!p)
    return std::nullopt;
  return "if (" + *p + ") { " + *code + "} ";
}

} // namespace

std::string ptxFamily(const std::string &opcode) {
  const std::vector<std::string> parts = split(opcode, '.');
  if (parts.empty())
    return opcode;
  if (parts.size() >= 3 && parts[0] == "cp" && parts[1] == "async" && parts[2] == "bulk")
    return parts.size() >= 4 && parts[3] == "tensor" ? "cp.async.bulk.tensor" : "cp.async.bulk";
  if (parts[0] == "cp" && parts.size() >= 2)
    return "cp." + parts[1];
  return parts.size() >= 2 ? parts[0] + "." + parts[1] : parts[0];
}

AsmTranslation translateAsm(const PassContext &ctx, std::size_t asmToken, std::size_t open, std::size_t close,
                            const std::string &text) {
  AsmTranslation out;
  std::vector<Instruction> instructions;
  std::map<std::string, int> regs;
  std::vector<AsmOperand> operands;
  const bool parsed = parseTemplate(text, instructions, regs);
  if (!parsed) {
    out.unsupported.push_back("(labels or directives)");
    return out;
  }
  if (!parseOperands(ctx, open, close, operands)) {
    out.unsupported.push_back(instructions.empty() ? "(operands)" : ptxFamily(instructions.front().opcode) + " (operands)");
    return out;
  }
  Emitter emitter(operands, regs);
  std::string body;
  std::set<std::string> seen;
  for (const Instruction &ins : instructions) {
    const std::optional<std::string> code = emitter.emit(ins);
    if (code) {
      body += *code;
      continue;
    }
    const std::string family = ptxFamily(ins.opcode);
    if (seen.insert(family).second)
      out.unsupported.push_back(family);
  }
  if (!out.unsupported.empty())
    return out;
  std::string code = "do { ";
  for (std::size_t i = 0; i < operands.size(); ++i)
    code += "auto &&cudacpu_p" + std::to_string(i) + " = " + operands[i].expression + "; ";
  for (const auto &[name, bits] : regs)
    code += (bits == 1 ? std::string("bool") : bits <= 16 ? std::string("std::uint16_t") : bits <= 32 ? std::string("std::uint32_t") : std::string("std::uint64_t")) +
            " cudacpu_r_" + name + " = 0; ";
  code += body + "} while (0)";
  (void)asmToken;
  out.translated = true;
  out.code = code;
  return out;
}

} // namespace kbaudit::cudacpu
