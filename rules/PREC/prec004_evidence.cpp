// Evidence for PREC004. fp8: operands widened before the MMA (Triton casts, bf16/f16 PTX
// MMA, bf16 CUTLASS/cuBLASLt types, fp8->wide conversions, forward upcasting its inputs)
// against fp8 MMA (uncast Triton dots, e4m3 PTX MMA, fp8 CUTLASS/cuBLASLt types).
// int4: dequantized 16-bit weights kept on the module against unpacking inside a kernel.

#include "prec004_evidence.h"

#include "forward_entry.h"

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/compiled/ptx_reader.h"
#include "kbaudit/semantic/compiled_evidence.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/fact_quote.h"
#include "kbaudit/semantic/int4_unpack.h"

#include <algorithm>
#include <set>

namespace kbaudit::rules {

namespace {

using problems::canonicalDtype;
using problems::dtypeBits;

bool isFp8(std::string_view canonical) { return canonical.starts_with("fp8"); }
/// A 16- or 32-bit float: what an fp8 operand is widened to.
bool isWideFloat(std::string_view canonical) {
  return canonical == "bf16" || canonical == "fp16" || canonical == "fp32" || canonical == "tf32";
}

using compiled::ptxDtype;

void add(std::vector<Widening> &to, LineRange lines, std::string wide, std::string how, std::string detail) {
  if (lines.valid())
    to.push_back({lines, std::move(wide), std::move(how), std::move(detail)});
}

void tritonDots(const triton::TritonFacts &t, BypassEvidence &ev) {
  for (const triton::Dot &dot : t.dots) {
    const std::string kernel = dot.kernel < t.kernels.size() ? t.kernels[dot.kernel].name : "";
    if (dot.scaled) {
      for (const triton::DotArg *fmt : {&dot.lhsFormat, &dot.rhsFormat})
        if (isFp8(canonicalDtype(fmt->folded))) {
          add(ev.lowPrecisionCompute, dot.lines, "fp8", "", "tl.dot_scaled with fp8 formats in " + kernel);
          break;
        }
      continue;
    }
    bool widened = false, fp8Capable = true;
    for (const triton::DotOperand &op : dot.operands) {
      const bool fromOperand = op.source == triton::DtypeSource::KernelCast || op.source == triton::DtypeSource::HostCast;
      if (fromOperand && isWideFloat(op.dtype)) {
        const bool inKernel = op.source == triton::DtypeSource::KernelCast;
        LineRange where = dot.lines;
        if (inKernel && op.cast)
          where = op.cast->lines;
        else if (!inKernel && !op.hostCasts.empty())
          where = op.hostCasts.front().lines; // the cast in forward is the evidence, not the dot
        add(ev.widenings, where, op.dtype,
            inKernel ? "the Triton kernel " + kernel + " casts the tl.dot operand" : "the host casts the kernel's input",
            inKernel && op.cast ? op.cast->source + ".to(" + op.cast->target.written + ") feeding tl.dot"
                                : "tl.dot(" + semantic::quote(op) + ", ...) on a " + op.dtype + " host-cast input");
        widened = true;
      }
      // Loads that are not cast reach tl.dot in the pointer's own dtype: fp8 for fp8 inputs.
      const bool plainLoad = op.loaded && !op.cast && (op.dtype.empty() || isFp8(op.dtype));
      if (!plainLoad && !(isFp8(op.dtype)))
        fp8Capable = false;
    }
    if (!widened && fp8Capable && dot.operands.size() == 2)
      add(ev.lowPrecisionCompute, dot.lines, "fp8", "", "tl.dot on uncast loaded tiles in " + kernel);
  }
}

void ptx(const Facts &f, BypassEvidence &ev) {
  const cxx::CxxFacts &c = f.cxx;
  for (const cxx::PtxInstruction &p : c.ptx) {
    const bool mma = p.opcode == "mma" || p.opcode == "wgmma" || p.opcode.starts_with("tcgen05");
    if (mma) {
      // D, A, B[, C]: the operand types are the 2nd and 3rd type modifiers.
      const std::string a = p.types.size() >= 3 ? ptxDtype(p.types[1]) : "";
      const bool kindFp8 = std::any_of(p.modifiers.begin(), p.modifiers.end(),
                                       [](const std::string &m) { return m.find("f8f6f4") != std::string::npos; });
      const bool fp8 = isFp8(a) || kindFp8;
      if (!fp8 && a != "bf16" && a != "fp16" && a != "tf32")
        continue;
      // An asm statement the compiler never emits (a template nobody instantiates, an arch guard
      // that is off for the run's GPU) neither widens nor uses the contract precision.
      const semantic::CompiledEvidence ce = semantic::compiledUse(f, p.source, p.function, fp8 ? "fp8e4m3" : a,
                                                                  semantic::CompiledUse::MmaOperand);
      if (ce.state == semantic::CompiledState::Absent)
        continue;
      const std::string &compiled = semantic::describe(ce);
      const std::string detail = compiled.empty() ? semantic::quote(p) : semantic::quote(p) + " (" + compiled + ")";
      if (fp8)
        add(ev.lowPrecisionCompute, p.lines, "fp8", "", detail);
      else
        add(ev.widenings, p.lines, a, "the MMA instructions take " + a + " operands", detail);
    } else if (p.opcode == "cvt" && p.types.size() >= 2 && isFp8(ptxDtype(p.types[1])) &&
               isWideFloat(ptxDtype(p.types[0]))) {
      add(ev.widenings, p.lines, ptxDtype(p.types[0]), "device code converts fp8 operands to a wider type",
          semantic::quote(p));
    }
  }
}

bool sourceUsesCutlass(const cxx::CxxFacts &c, int source) {
  for (const cxx::ApiReference &r : c.references)
    if (r.source == source && (r.category == cxx::CallCategory::Cutlass || r.category == cxx::CallCategory::Cute))
      return true;
  for (const cxx::CxxCall &call : c.calls)
    if (call.source == source && (call.category == cxx::CallCategory::Cutlass || call.category == cxx::CallCategory::Cute))
      return true;
  return false;
}

void numericTypes(const cxx::CxxFacts &c, BypassEvidence &ev) {
  using cxx::NumericType;
  using cxx::NumericUseKind;
  const auto isFp8Type = [](NumericType t) {
    return t == NumericType::Fp8E4M3 || t == NumericType::Fp8E5M2 || t == NumericType::Fp8;
  };
  // A CUTLASS source instantiated with fp8 elements multiplies fp8; its bf16 template
  // arguments are then the output or epilogue type, not widened operands.
  std::set<int> fp8Cutlass;
  for (const cxx::NumericUse &u : c.numericTypes)
    if (isFp8Type(u.type) && u.kind == NumericUseKind::TemplateArgument && sourceUsesCutlass(c, u.source)) {
      fp8Cutlass.insert(u.source);
      add(ev.lowPrecisionCompute, u.lines, "fp8", "", "CUTLASS/CuTe GEMM on " + u.spelling);
    }
  for (const cxx::NumericUse &u : c.numericTypes) {
    const bool fp8 = isFp8Type(u.type);
    const bool wide16 = u.type == NumericType::BFloat16 || u.type == NumericType::Half;
    const std::string wide = u.type == NumericType::BFloat16 ? "bf16" : "fp16";
    // cuBLASLt layouts name the operand types; at::kFloat8_e4m3fn in a dtype check does not compute.
    const bool blasType = u.kind == NumericUseKind::LibraryConstant && u.spelling.starts_with("CUDA_R_");
    if (blasType && fp8)
      add(ev.lowPrecisionCompute, u.lines, "fp8", "", u.spelling);
    else if (blasType && wide16)
      add(ev.widenings, u.lines, wide, "the cuBLASLt matmul is described with " + wide + " layouts", u.spelling);
    else if (wide16 && u.kind == NumericUseKind::TemplateArgument && !u.inDevice && sourceUsesCutlass(c, u.source) &&
             !fp8Cutlass.count(u.source))
      add(ev.widenings, u.lines, wide, "the CUTLASS GEMM is instantiated with " + wide + " elements", u.spelling);
    else if (fp8 && u.kind == NumericUseKind::Conversion && u.direction == cxx::ConversionDirection::Widening &&
             u.inDevice)
      add(ev.widenings, u.lines, "wider", "device code converts fp8 values to a wider type before the math",
          u.spelling);
  }
}

/// `x.to(torch.bfloat16)`, `x.bfloat16()`, `x.half()`, `x.float()` on a forward input.
void forwardUpcasts(const Facts &f, BypassEvidence &ev) {
  const std::set<std::string> reachable = reachableFromForward(f);
  std::set<std::string> inputs;
  for (const std::string &entry : f.kernels.entryPoints)
    if (const py::Function *fn = f.python.findFunction(entry))
      for (const std::string &p : fn->params)
        if (p != "self")
          inputs.insert(p);
  // A cast inside a torch matmul expression is a library fallback (WRAP001/WRAP007 judge
  // those); the bypass is an upcast handed to the authored kernel.
  std::set<unsigned> libraryLines;
  for (const kernels::LibraryOp &op : f.kernels.libraryOps)
    for (unsigned l = op.lines.begin; l && l <= op.lines.end; ++l)
      libraryLines.insert(l);
  for (const py::Call &c : f.python.calls) {
    if (!reachable.count(c.function) || !inputs.count(c.receiver) || libraryLines.count(c.lines.begin))
      continue;
    std::string target;
    if (c.method == "to" || c.method == "type") {
      for (const py::Argument &a : c.args)
        if ((a.keyword.empty() || a.keyword == "dtype") && a.value.resolved.starts_with("torch."))
          target = canonicalDtype(a.value.resolved);
    } else if (c.args.empty() && (c.method == "bfloat16" || c.method == "half" || c.method == "float")) {
      target = canonicalDtype(c.method);
    }
    if (isWideFloat(target)) {
      add(ev.widenings, c.lines, target, "forward upcasts its input before the GEMM", c.callee + "(...)");
      ev.widenings.back().pythonSide = true;
    }
  }
}

void sortByLine(std::vector<Widening> &v) {
  std::stable_sort(v.begin(), v.end(), [](const Widening &a, const Widening &b) { return a.lines.begin < b.lines.begin; });
}

} // namespace

/// MMAs the compiler emits for kernels forward reaches, whatever the source spells them with
/// (wmma fragments, CUTLASS/CuTe templates, inline PTX): fp8 operands are the promised
/// instructions, 16-bit or tf32 operands a widened GEMM. Kernels already quoted by a source
/// site are not counted twice.
void compiledMmas(const Facts &f, BypassEvidence &ev) {
  std::set<std::string> quoted; // kernels with a widening from a source site
  for (const semantic::CompiledMma &m : semantic::compiledMmas(f)) {
    if (!m.reached || !m.lines.valid())
      continue;
    const std::string &a = m.mma->a;
    if (isFp8(a) || m.mma->kind.find("f8f6f4") != std::string::npos) {
      add(ev.lowPrecisionCompute, LineRange{m.lines.begin, m.lines.begin}, "fp8", "", semantic::describe(m));
      continue;
    }
    if (a != "bf16" && a != "fp16" && a != "tf32")
      continue;
    const bool covered = std::any_of(ev.widenings.begin(), ev.widenings.end(),
                                     [&](const Widening &w) { return m.lines.overlaps(w.lines); });
    if (covered || !quoted.insert(m.kernel->name).second)
      continue;
    add(ev.widenings, LineRange{m.lines.begin, m.lines.begin}, a,
        "the compiled kernel " + m.kernel->name + " multiplies " + a + " operands on the tensor cores",
        semantic::describe(m));
  }
}

BypassEvidence fp8Evidence(const Facts &f) {
  BypassEvidence ev;
  tritonDots(f.triton, ev);
  ptx(f, ev);
  compiledMmas(f, ev);
  numericTypes(f.cxx, ev);
  forwardUpcasts(f, ev);
  sortByLine(ev.widenings);
  sortByLine(ev.lowPrecisionCompute);
  return ev;
}

BypassEvidence int4Evidence(const Facts &f) {
  BypassEvidence ev;
  // In-kernel unpacking: shifts and masks inside an authored kernel's own lines.
  for (const kernels::Kernel &k : f.kernels.kernels) {
    if (semantic::kernelMentionsUnpack(f, k)) {
      add(ev.lowPrecisionCompute, k.lines, "int4", "", "kernel " + k.name + " unpacks int4 values");
      break;
    }
  }
  // Dequantized weights kept on the module: a method that unpacks nibbles, converts to a
  // 16-bit float and stores the result on self, so later calls skip the unpack.
  std::set<std::string> unpacking, casting;
  for (const py::Assignment &a : f.python.assignments)
    if (semantic::unpacksNibbles(a.value))
      unpacking.insert(a.function);
  for (const py::Call &c : f.python.calls) {
    std::string target;
    if (const py::Argument *d = c.keywordArg("dtype"))
      target = canonicalDtype(d->value.resolved);
    else if (c.method == "to" && c.positionalArg(0))
      target = canonicalDtype(c.positionalArg(0)->value.resolved);
    else if (c.args.empty() && (c.method == "bfloat16" || c.method == "half"))
      target = canonicalDtype(c.method);
    if (target == "bf16" || target == "fp16")
      casting.insert(c.function);
  }
  for (const py::Assignment &a : f.python.assignments) {
    if (a.kind != py::Assignment::TargetKind::SelfAttribute || !unpacking.count(a.function) ||
        !casting.count(a.function) || a.value.kind == py::ExprKind::None)
      continue;
    add(ev.widenings, a.lines, "bf16", "the module stores int4 weights dequantized to 16-bit floats",
        a.target + " = " + semantic::quote(a.value, 80));
    break;
  }
  return ev;
}

} // namespace kbaudit::rules
