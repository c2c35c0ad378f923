// PTX to instruction facts. PTX is line-oriented enough to read statement by statement: a
// statement ends at ';', a function body is the brace block after an `.entry`/`.func` header,
// inline-asm scopes open with '{' at the start of a statement, and braces inside a statement
// are vector operands (`{%f1, %f2}`) or initializers.

#include "kbaudit/compiled/ptx_reader.h"

#include "kbaudit/compiled/demangle.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>
#include <utility>

namespace kbaudit::compiled {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '%';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back()))
    s.remove_suffix(1);
  return s;
}

/// The PTX text without `//` and `/* */` comments (newlines kept).
std::string stripComments(std::string_view ptx) {
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < ptx.size(); ++i) {
    if (ptx[i] == '/' && i + 1 < ptx.size() && ptx[i + 1] == '/') {
      while (i < ptx.size() && ptx[i] != '\n')
        ++i;
      if (i < ptx.size())
        out += '\n';
      continue;
    }
    if (ptx[i] == '/' && i + 1 < ptx.size() && ptx[i + 1] == '*') {
      const size_t end = ptx.find("*/", i + 2);
      i = end == std::string_view::npos ? ptx.size() : end + 1;
      out += ' ';
      continue;
    }
    out += ptx[i];
  }
  return out;
}

std::vector<std::string> splitDots(std::string_view s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') {
      parts.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

bool isFloatDtype(std::string_view d) {
  return d.starts_with("fp") || d == "bf16" || d == "tf32";
}

/// The name an `.entry`/`.func` header declares: after the keyword, an optional return
/// parameter list in parentheses, then the name.
std::string headerName(std::string_view header) {
  size_t at = header.find(".entry");
  size_t skip = 6;
  if (at == std::string_view::npos) {
    at = header.find(".func");
    skip = 5;
  }
  if (at == std::string_view::npos)
    return {};
  size_t i = at + skip;
  while (i < header.size() && isSpace(header[i]))
    ++i;
  if (i < header.size() && header[i] == '(') {
    int depth = 0;
    for (; i < header.size(); ++i) {
      depth += header[i] == '(' ? 1 : header[i] == ')' ? -1 : 0;
      if (depth == 0)
        break;
    }
    ++i;
    while (i < header.size() && isSpace(header[i]))
      ++i;
  }
  const size_t start = i;
  while (i < header.size() && isNameChar(header[i]))
    ++i;
  return std::string(header.substr(start, i - start));
}

/// `call.uni (retval0), _Z3fooi, (param0)` -> "_Z3fooi".
std::string callee(std::string_view operands) {
  std::string flat;
  int depth = 0;
  for (char c : operands) {
    depth += c == '(' ? 1 : 0;
    if (depth == 0)
      flat += c;
    depth -= c == ')' ? 1 : 0;
  }
  for (size_t i = 0; i < flat.size(); ++i)
    if (isNameChar(flat[i]) && flat[i] != '.' && flat[i] != '%') {
      size_t j = i;
      while (j < flat.size() && isNameChar(flat[j]))
        ++j;
      return flat.substr(i, j - i);
    }
  return {};
}

unsigned elementBytes(std::string_view t) {
  if (t == "b8" || t == "u8" || t == "s8")
    return 1;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16")
    return 2;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32")
    return 4;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64")
    return 8;
  if (t == "b128")
    return 16;
  return 0;
}

/// `.shared .align 4 .b8 _ZZ...E2As[1024]` -> 1024 (element size times the array length).
unsigned declaredBytes(std::string_view decl) {
  unsigned element = 0;
  for (const std::string &tok : splitDots(decl)) {
    std::string t(trim(tok));
    if (const size_t sp = t.find_first_of(" \t"); sp != std::string::npos)
      t.resize(sp);
    if (const unsigned b = elementBytes(t))
      element = b;
  }
  const size_t open = decl.find('['), close = decl.find(']');
  if (open == std::string_view::npos || close == std::string_view::npos || close <= open + 1)
    return element;
  unsigned long long n = 0;
  for (size_t i = open + 1; i < close; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(decl[i])))
      return 0;
    n = n * 10 + static_cast<unsigned>(decl[i] - '0');
    if (n > (1ull << 32))
      return 0;
  }
  const unsigned long long bytes = n * element;
  return bytes > 0xffffffffull ? 0 : static_cast<unsigned>(bytes);
}

const std::set<std::string, std::less<>> &arithmeticOpcodes() {
  static const std::set<std::string, std::less<>> ops = {
      "add", "sub", "mul", "div", "min", "max", "neg", "abs", "rcp", "sqrt", "rsqrt", "ex2", "lg2",
      "sin", "cos", "tanh", "copysign", "fma", "mad",
      // Comparisons of values (a ReLU's `setp.gt.f32`) are work on data too; index compares are integer.
      "set", "setp", "slct", "testp"};
  return ops;
}

bool isFloatArithType(std::string_view t) {
  return t == "f32" || t == "f16" || t == "f16x2" || t == "bf16" || t == "bf16x2" || t == "f64";
}

void addMma(KernelCode &code, std::string_view instruction, const std::vector<std::string> &parts) {
  MmaUse m;
  m.instruction = std::string(instruction);
  m.family = parts[0] == "mma" ? "mma" : parts[0];
  std::vector<std::string> types;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string &p = parts[i];
    if (p.starts_with("kind::"))
      m.kind = p.substr(6);
    else if (const std::string d = ptxDtype(p); !d.empty())
      types.push_back(d);
  }
  if (m.family == "tcgen05") {
    // The instruction descriptor picks the types; the kind bounds them.
    if (m.kind == "tf32")
      m.a = m.b = "tf32";
    else if (m.kind == "f16")
      m.a = m.b = "fp16"; // fp16 or bf16: both 16-bit (MmaUse::kind says which family)
    else if (m.kind == "i8")
      m.a = m.b = "int8";
  } else if (types.size() >= 4) { // D, A, B, C
    m.accumulator = types[0];
    m.a = types[1];
    m.b = types[2];
  } else if (types.size() == 3) { // wgmma: D, A, B
    m.accumulator = types[0];
    m.a = types[1];
    m.b = types[2];
  } else if (types.size() == 2 && m.family == "wmma") {
    // wmma.mma with f16 operands names only D and C: A and B are f16 by definition.
    m.accumulator = types[0];
    m.a = m.b = "fp16";
  } else if (!types.empty()) {
    m.accumulator = types[0];
  }
  for (MmaUse &have : code.mma)
    if (have.instruction == m.instruction) {
      ++have.count;
      return;
    }
  m.count = 1;
  code.mma.push_back(std::move(m));
}

void addConversion(KernelCode &code, std::string_view instruction, const std::vector<std::string> &parts) {
  std::vector<std::string> types;
  for (size_t i = 1; i < parts.size(); ++i)
    if (std::string d = ptxDtype(parts[i]); !d.empty())
      types.push_back(std::move(d));
  if (types.size() < 2 || (!isFloatDtype(types[0]) && !isFloatDtype(types[1])))
    return;
  for (ConversionUse &have : code.conversions)
    if (have.instruction == instruction) {
      ++have.count;
      return;
    }
  code.conversions.push_back({std::string(instruction), types[0], types[1], 1});
}

bool has(const std::vector<std::string> &parts, std::string_view p) {
  return std::find(parts.begin(), parts.end(), p) != parts.end();
}

void addInstruction(PtxFunction &fn, std::string_view statement) {
  // Labels ($L__BB0_3:) and predicate guards (@%p1, @!%p1) precede the opcode.
  for (;;) {
    statement = trim(statement);
    size_t end = 0;
    while (end < statement.size() && !isSpace(statement[end]))
      ++end;
    const std::string_view first = statement.substr(0, end);
    if (first.empty())
      return;
    if (first.back() == ':' || first.front() == '@') {
      statement.remove_prefix(end);
      continue;
    }
    break;
  }
  size_t end = 0;
  while (end < statement.size() && !isSpace(statement[end]))
    ++end;
  const std::string_view opcode = statement.substr(0, end);
  const std::string_view operands = trim(statement.substr(end));
  KernelCode &code = fn.code;
  if (opcode.front() == '.') {
    if (opcode == ".shared")
      code.staticSharedBytes += declaredBytes(statement);
    else if (opcode == ".extern" && statement.find(".shared") != std::string_view::npos)
      code.dynamicShared = true;
    return;
  }
  ++code.instructions;
  const std::vector<std::string> parts = splitDots(opcode);
  const std::string &op = parts[0];
  if (op == "mma" || op == "wgmma" || (op == "wmma" && parts.size() > 1 && parts[1] == "mma") ||
      (op == "tcgen05" && parts.size() > 1 && parts[1] == "mma")) {
    addMma(code, opcode, parts);
    return;
  }
  if (op == "cvt") {
    addConversion(code, opcode, parts);
    return;
  }
  if (op == "call") {
    if (std::string c = callee(operands); !c.empty())
      fn.calls.push_back(std::move(c));
    return;
  }
  if (op == "ld" || op == "ldu") {
    code.globalLoads += has(parts, "global");
    code.sharedLoads += has(parts, "shared") || std::any_of(parts.begin(), parts.end(), [](const std::string &p) {
                          return p.starts_with("shared::");
                        });
    code.localLoads += has(parts, "local");
    return;
  }
  if (op == "ldmatrix") {
    ++code.sharedLoads;
    return;
  }
  if (op == "st") {
    code.globalStores += has(parts, "global");
    code.sharedStores += has(parts, "shared") || std::any_of(parts.begin(), parts.end(), [](const std::string &p) {
                           return p.starts_with("shared::");
                         });
    code.localStores += has(parts, "local");
    return;
  }
  if (op == "stmatrix") {
    ++code.sharedStores;
    return;
  }
  if (op == "cp" && parts.size() > 1 && (parts[1] == "async" || parts[1] == "reduce")) {
    ++code.asyncCopies;
    return;
  }
  if (op == "atom" || op == "red") {
    ++code.atomics;
    return;
  }
  if (op == "bar" || op == "barrier") {
    ++code.barriers;
    return;
  }
  if (!arithmeticOpcodes().count(op))
    return;
  std::string type;
  for (size_t i = parts.size(); i-- > 1;)
    if (isFloatArithType(parts[i])) {
      type = parts[i];
      break;
    }
  if (type.empty())
    return; // integer and index arithmetic
  if (op == "fma" || op == "mad")
    ++code.fma[type];
  else
    ++code.arithmetic[type];
}

void merge(KernelCode &into, const KernelCode &from) {
  for (const MmaUse &m : from.mma) {
    auto it = std::find_if(into.mma.begin(), into.mma.end(), [&](const MmaUse &h) { return h.instruction == m.instruction; });
    if (it == into.mma.end())
      into.mma.push_back(m);
    else
      it->count += m.count;
  }
  for (const ConversionUse &c : from.conversions) {
    auto it = std::find_if(into.conversions.begin(), into.conversions.end(),
                           [&](const ConversionUse &h) { return h.instruction == c.instruction; });
    if (it == into.conversions.end())
      into.conversions.push_back(c);
    else
      it->count += c.count;
  }
  for (const auto &[t, n] : from.fma)
    into.fma[t] += n;
  for (const auto &[t, n] : from.arithmetic)
    into.arithmetic[t] += n;
  into.globalLoads += from.globalLoads;
  into.globalStores += from.globalStores;
  into.sharedLoads += from.sharedLoads;
  into.sharedStores += from.sharedStores;
  into.localLoads += from.localLoads;
  into.localStores += from.localStores;
  into.asyncCopies += from.asyncCopies;
  into.atomics += from.atomics;
  into.barriers += from.barriers;
  into.staticSharedBytes += from.staticSharedBytes;
  into.dynamicShared = into.dynamicShared || from.dynamicShared;
  into.instructions += from.instructions;
}

} // namespace

std::string ptxDtype(std::string_view t) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kPrefixes = {{
      {"bf16", "bf16"}, {"f16", "fp16"}, {"tf32", "tf32"}, {"e4m3", "fp8e4m3"}, {"e5m2", "fp8e5m2"},
      {"e2m1", "fp4e2m1"}, {"e3m2", "fp6e3m2"}, {"e2m3", "fp6e2m3"}, {"f32", "fp32"}, {"f64", "fp64"},
      {"s8", "int8"}, {"u8", "uint8"}, {"s4", "int4"}, {"u4", "int4"}, {"b1", "int1"}, {"s32", "int32"},
  }};
  for (const auto &[prefix, canonical] : kPrefixes) {
    if (!t.starts_with(prefix))
      continue;
    const std::string_view rest = t.substr(prefix.size());
    // "f16x2", "e4m3x4": packed vectors of the same type; "f32" must not match "f32x..."-less
    // spellings of other types ("s32" is not "s4"+"2"), so only an x-count may follow.
    if (rest.empty() || (rest.size() == 2 && rest[0] == 'x' && std::isdigit(static_cast<unsigned char>(rest[1]))))
      return std::string(canonical);
  }
  return {};
}

std::vector<PtxFunction> readPtxFunctions(std::string_view ptx) {
  const std::string text = stripComments(ptx);
  std::vector<PtxFunction> out;
  int depth = 0;        // scope braces (function body, inline-asm scopes)
  int operandDepth = 0; // braces inside the current statement
  std::string statement;
  PtxFunction *current = nullptr;
  for (char c : text) {
    if (depth == 0) {
      if (c == '{' && operandDepth == 0 &&
          (statement.find(".entry") != std::string::npos || statement.find(".func") != std::string::npos)) {
        out.push_back(PtxFunction{headerName(statement), statement.find(".entry") != std::string::npos, {}, {}});
        current = &out.back();
        statement.clear();
        depth = 1;
        continue;
      }
      operandDepth += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (c == ';' && operandDepth <= 0) {
        statement.clear(); // module-level directive or a declaration without a body
        operandDepth = 0;
        continue;
      }
      statement += c;
      continue;
    }
    const bool atStart = trim(statement).empty();
    if (c == '{' && atStart && operandDepth == 0) {
      ++depth;
      statement.clear();
      continue;
    }
    if (c == '}' && operandDepth == 0) {
      if (current && !trim(statement).empty())
        addInstruction(*current, statement);
      statement.clear();
      if (--depth == 0)
        current = nullptr;
      continue;
    }
    if (c == '{')
      ++operandDepth;
    else if (c == '}')
      --operandDepth;
    if (c == ';' && operandDepth == 0) {
      if (current)
        addInstruction(*current, statement);
      statement.clear();
      continue;
    }
    statement += c;
  }
  return out;
}

std::vector<CompiledKernel> readPtx(std::string_view ptx) {
  const std::vector<PtxFunction> functions = readPtxFunctions(ptx);
  std::map<std::string, const PtxFunction *> byName;
  for (const PtxFunction &f : functions)
    byName.emplace(f.name, &f);
  std::vector<CompiledKernel> kernels;
  for (const PtxFunction &f : functions) {
    if (!f.entry || f.name.empty())
      continue;
    CompiledKernel k;
    k.mangled = f.name;
    k.demangled = demangle(f.name);
    k.name = functionName(k.demangled);
    k.code = f.code;
    // Device functions nvcc did not inline: their instructions run as part of this kernel.
    std::set<std::string> seen{f.name};
    std::vector<std::string> frontier(f.calls.begin(), f.calls.end());
    while (!frontier.empty()) {
      const std::string name = std::move(frontier.back());
      frontier.pop_back();
      if (!seen.insert(name).second)
        continue;
      const auto it = byName.find(name);
      if (it == byName.end())
        continue;
      merge(k.code, it->second->code);
      frontier.insert(frontier.end(), it->second->calls.begin(), it->second->calls.end());
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

} // namespace kbaudit::compiled
