// PREC001 downcast-below-contract: forward's compute runs in a type narrower than the
// problem's contract (an fp32 problem multiplied in fp16/bf16/tf32, a bf16 problem in fp8).

#include "all_checks.h"
#include "prec001_python_sites.h"
#include "prec001_reach.h"
#include "semantic_names.h"

#include "kbaudit/compiled/ptx_reader.h"
#include "kbaudit/semantic/autocast.h"
#include "kbaudit/semantic/compiled_evidence.h"
#include "kbaudit/semantic/cxx_dtype.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/fact_quote.h"
#include "kbaudit/semantic/input_data.h"
#include "kbaudit/semantic/split_precision.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kbaudit::rules {
namespace {

using precreach::Reach;

unsigned bitsOf(std::string_view dtype) {
  if (dtype.starts_with("fp6") && dtype != "fp64")
    return 6; // PTX e3m2 / e2m3: dtypeBits does not know them (fp64 is not one of them)
  return problems::dtypeBits(dtype);
}

bool isFloating(std::string_view dtype) {
  return dtype.starts_with("fp") || dtype == "bf16" || dtype == "tf32";
}

using compiled::ptxDtype;

using semantic::cxxdtype::isHalfArithmetic;
using semantic::cxxdtype::libraryConstantDtype;
using semantic::cxxdtype::numericDtype;

// ---------------------------------------------------------------------------------------

class Run {
public:
  Run(const CheckContext &ctx, FindingSink &sink)
      : ctx_(ctx), facts_(ctx.facts), sink_(sink), reach_(ctx.facts) {}

  void operator()() {
    contract_ = ctx_.problem->contractDtype();
    contractBits_ = bitsOf(contract_);
    if (contractBits_ == 0) {
      sink_.skipped("the problem's contract precision is unknown");
      return;
    }
    pythonCasts();
    pythonSites(prec001::activationCasts(facts_));
    pythonSites(prec001::narrowModules(facts_));
    autocast();
    tritonDots();
    tritonQuantizePasses();
    // Device code that computes a rounding residual (`lo = f2h(x - h2f(hi))`): split-precision
    // emulation, where several narrow MMAs rebuild the wide product.
    splitSources_ = semantic::splitPrecisionSources(facts_.cxx);
    ptxMma();
    deviceTypes();
    libraryTypes();
    hostCasts();
  }

private:
  bool below(const std::string &dtype) const {
    const unsigned b = bitsOf(dtype);
    return b != 0 && b < contractBits_;
  }

  /// `derived`: the narrowed value is computed inside the kernel (a scaled tile, a running
  /// state), not the problem's input or weight data; a mixed-precision choice for review.
  /// `compiled`: what the compiled kernels say about a CUDA site (semantic/compiled_evidence.h);
  /// an MMA the compiler emits with an accumulator below the contract makes the loss certain.
  void report(LineRange lines, const std::string &site, const std::string &dtype, Reach reach,
              std::string evidence = {}, bool derived = false,
              const semantic::CompiledEvidence *compiled = nullptr) {
    if (!lines.valid())
      return;
    for (unsigned l = lines.begin; l <= lines.end; ++l)
      if (reported_.count(l))
        return;
    for (unsigned l = lines.begin; l <= lines.end; ++l)
      reported_.insert(l);
    std::optional<Confidence> confidence;
    if (derived) {
      confidence = Confidence::Low;
      evidence = "the narrowed value is computed in the kernel, not loaded input or weight data";
    }
    if (reach != Reach::Reached) {
      confidence = Confidence::Low;
      const char *why = reach == Reach::Unreached ? "no static call path from forward reaches it"
                                                  : "kbaudit cannot see how forward reaches it";
      evidence = evidence.empty() ? why : evidence + "; " + why;
    }
    // Proof of harm: the loss is certain only when the narrow type's rounding alone exceeds
    // what the problem tolerates. Within the tolerance, a mixed-precision kernel can be
    // accurate enough; the runtime differential decides, and until then it is for review.
    // A declared precision (KernelBench-v3 `precision_used`) is the contract itself: compute
    // below it breaks the contract whatever its error, as the suite's own rules say.
    const bool narrowAccumulation = compiled && compiled->state == semantic::CompiledState::Confirmed &&
                                    below(compiled->accumulator);
    if (compiled && !semantic::describe(*compiled).empty())
      evidence = evidence.empty() ? semantic::describe(*compiled) : evidence + "; " + semantic::describe(*compiled);
    if (!confidence && narrowAccumulation) {
      // Products and sums both round to the narrow type: certain loss, whatever the tolerance.
      evidence += "; it accumulates in " + compiled->accumulator + ", below the contract";
    } else if (!confidence && ctx_.problem->precisionDeclared) {
      const std::string why = "the run declared " + contract_ + " as its precision; " + dtype + " compute is below it";
      evidence = evidence.empty() ? why : evidence + "; " + why;
    } else if (!confidence) {
      const std::optional<double> tol = tolerance();
      const double u = problems::unitRoundoff(dtype);
      if (!tol || u <= *tol) {
        confidence = Confidence::Low;
        const std::string why = tol ? dtype + " rounding (" + shortNumber(u) + ") is within the problem's tolerance (" +
                                          shortNumber(*tol) + "); the runtime differential decides"
                                    : "the problem states no tolerance for its " + contract_ +
                                          " contract; the runtime differential decides";
        evidence = evidence.empty() ? why : evidence + "; " + why;
      }
    }
    sink_.report(lines, {{"site", site}, {"dtype", dtype}, {"contract", contract_}}, std::move(evidence),
                 confidence);
  }

  /// The problem's tolerance for its contract dtype (problem.yaml `tolerance`, keyed by any
  /// spelling of the dtype); nullopt when it states none.
  std::optional<double> tolerance() const {
    for (const auto &[key, value] : ctx_.problem->tolerance)
      if (problems::canonicalDtype(key) == contract_)
        return value;
    return std::nullopt;
  }

  static std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", v);
    return buf;
  }

  // What the reference itself narrows to is part of the contract's definition.
  bool referenceUses(const std::string &dtype) const {
    const problems::ReferenceSummary &ref = ctx_.problem->reference;
    for (const auto *uses : {&ref.inputDtypes, &ref.weightDtypes})
      for (const problems::DtypeUse &u : *uses)
        if (u.dtype == dtype)
          return true;
    for (const py::Call &c : ref.facts.calls)
      if (floatcast::conversionTarget(ref.facts, c) == dtype)
        return true;
    return false;
  }

  Reach pythonReach(const std::string &function) const {
    if (!reach_.knownEntry())
      return Reach::Unknown;
    return reach_.pythonReached(function) ? Reach::Reached : Reach::Unreached;
  }

  // forward (or a helper, or the constructor) narrowing its inputs or the module's weights.
  void pythonCasts() {
    const py::PythonFacts &py = facts_.python;
    for (const py::Call &c : py.calls) {
      if (facts_.triton.findKernel(c.function))
        continue; // Triton kernel casts are read from the Triton facts
      const Reach reach = pythonReach(c.function);
      if (reach == Reach::Unreached)
        continue;
      const std::string dtype = floatcast::conversionTarget(py, c);
      if (!isFloating(dtype) || !below(dtype) || referenceUses(dtype))
        continue;
      if (!py.findFunction(c.function) || !semantic::isInputOrWeight(py, c.function, semantic::receiverDataRoot(c.receiver)))
        continue; // masks, indices and results computed locally
      report(c.lines, "`" + c.callee + "` on an input or weight in " + c.function, dtype, reach);
    }
  }

  // Activations narrowed before the math, modules built narrow (prec001_python_sites.h).
  void pythonSites(const std::vector<prec001::NarrowingSite> &sites) {
    for (const prec001::NarrowingSite &s : sites) {
      const Reach reach = pythonReach(s.function);
      if (reach != Reach::Unreached && below(s.dtype) && !referenceUses(s.dtype))
        report(s.lines, s.site, s.dtype, reach);
    }
  }

  // torch.autocast around forward's work: every autocast-eligible op runs in fp16/bf16.
  void autocast() {
    for (const semantic::AutocastSite &a : semantic::autocastSites(facts_.python)) {
      const Reach reach = pythonReach(a.owner);
      const std::string dtype = a.dtype.empty() ? "fp16" : a.dtype;
      if (reach == Reach::Unreached || !below(dtype) || referenceUses(dtype))
        continue;
      report(a.call->lines, "`" + a.call->callee + "` around " + a.owner, dtype, a.dtype.empty() ? Reach::Unknown : reach,
             a.dtype.empty() ? "autocast dtype not statically known" : "");
    }
  }

  void tritonDots() {
    const triton::TritonFacts &tf = facts_.triton;
    std::optional<std::vector<bool>> splitKernels; // every kernel's answer, found at the first dot that asks
    for (const triton::Dot &d : tf.dots) {
      const Reach reach = reach_.tritonKernel(d.kernel);
      const std::string &kname = tf.kernels[d.kernel].name;
      if (d.scaled) {
        for (const triton::DotArg *fmt : {&d.lhsFormat, &d.rhsFormat}) {
          const std::string dtype = problems::canonicalDtype(fmt->folded);
          if (below(dtype))
            report(d.lines, "tl.dot_scaled in " + kname, dtype, reach);
        }
        continue;
      }
      // A residual split (`lo = (x - hi.to(fp32)).to(bf16)`) multiplies the rounding error
      // back in: several low-precision products emulating the contract's precision.
      if (!splitKernels)
        splitKernels = semantic::tritonSplitPrecisionByKernel(
            facts_, [&](std::string_view t) { return below(std::string(t)); });
      if ((*splitKernels)[d.kernel])
        continue;
      for (const triton::DotOperand &op : d.operands)
        if (below(op.dtype))
          reportOperand(d, op, kname, reach);
    }
  }

  void reportOperand(const triton::Dot &d, const triton::DotOperand &op, const std::string &kname, Reach reach) {
    const std::string site = "tl.dot operand `" + semantic::quote(op) + "` in " + kname;
    const bool derived = !op.loaded;
    switch (op.source) {
    case triton::DtypeSource::KernelCast:
      report(op.cast ? op.cast->lines : d.lines, site + " (cast in the kernel)", op.dtype, reach, {}, derived);
      return;
    case triton::DtypeSource::HostCast:
      for (const triton::HostCast &h : op.hostCasts)
        if (below(h.target.dtype))
          report(h.lines, site + " (cast on the host in " + h.function + ")", op.dtype, reach);
      return;
    case triton::DtypeSource::Constructor:
      report(op.originLines.valid() ? op.originLines : d.lines, site, op.dtype, reach, {}, true);
      return;
    default:
      report(d.lines, site, op.dtype, reach, {}, derived);
    }
  }

  // An elementwise kernel that writes forward's inputs or weights out in a narrower type
  // (a separate quantization pass whose result a later kernel multiplies).
  void tritonQuantizePasses() {
    const triton::TritonFacts &tf = facts_.triton;
    for (const triton::Cast &c : tf.casts) {
      const triton::Kernel &k = tf.kernels[c.kernel];
      if (c.bitcast || !k.work.elementwiseOnly || !isFloating(c.target.dtype) || !below(c.target.dtype) ||
          referenceUses(c.target.dtype))
        continue;
      const Reach reach = reach_.tritonKernel(c.kernel);
      if (reach == Reach::Unreached || !launchedOnData(c.kernel))
        continue;
      report(c.lines, "`" + c.source + "` cast in elementwise kernel " + k.name + " (run on forward's inputs or weights)",
             c.target.dtype, reach);
    }
  }

  bool launchedOnData(unsigned kernel) const {
    const py::PythonFacts &py = facts_.python;
    for (const triton::Launch &l : facts_.triton.launches) {
      if (std::find(l.candidates.begin(), l.candidates.end(), kernel) == l.candidates.end() &&
          l.kernel != kernel)
        continue;
      if (reach_.knownEntry() && !reach_.pythonReached(l.function))
        continue;
      for (const py::Argument &a : l.args)
        if (semantic::isInputOrWeight(py, l.function, semantic::sameDataRoot(a.value)))
          return true;
    }
    return false;
  }

  bool split(int source) const { return splitSources_.count(source) > 0; }

  void ptxMma() {
    for (const cxx::PtxInstruction &p : facts_.cxx.ptx) {
      if ((p.opcode != "mma" && p.opcode != "wgmma") || p.types.size() < 2 || split(p.source))
        continue;
      // mma: D, A, B, C; wgmma: D, A, B. The accumulators may be wide.
      const size_t last = p.opcode == "mma" && p.types.size() >= 4 ? p.types.size() - 1 : p.types.size();
      std::string low;
      for (size_t i = 1; i < last; ++i)
        if (std::string d = ptxDtype(p.types[i]); below(d) && (low.empty() || bitsOf(d) < bitsOf(low)))
          low = d;
      if (low.empty())
        continue;
      const semantic::CompiledEvidence ce =
          semantic::compiledUse(facts_, p.source, p.function, low, semantic::CompiledUse::MmaOperand);
      if (ce.state == semantic::CompiledState::Absent)
        continue; // compiled, and nothing in the source computes in it: the asm is never emitted
      report(p.lines, "PTX `" + semantic::quote(p) + "` in " + p.function, low, reach_.cxxFunction(p.function), {}, false, &ce);
    }
  }

  // wmma fragments / CUTLASS element types (template arguments), wmma precision tags and
  // half-precision arithmetic intrinsics in device code.
  void deviceTypes() {
    for (const cxx::NumericUse &u : facts_.cxx.numericTypes) {
      if (split(u.source))
        continue;
      const bool libraryTemplate = u.spelling.starts_with("cutlass::") || u.spelling.starts_with("cute::");
      const bool fragment = u.inDevice && (u.kind == cxx::NumericUseKind::TemplateArgument ||
                                           u.kind == cxx::NumericUseKind::Precision);
      const bool arithmetic =
          u.inDevice && u.kind == cxx::NumericUseKind::Arithmetic && isHalfArithmetic(u.spelling);
      const bool templ = libraryTemplate && u.kind == cxx::NumericUseKind::TemplateArgument;
      if (!fragment && !arithmetic && !templ)
        continue;
      const std::string dtype = numericDtype(u.type);
      if (!below(dtype))
        continue;
      const std::string what = arithmetic ? "`" + u.spelling + "` arithmetic" : "`" + u.spelling + "` operand type";
      // A narrow type in the source is not narrow math until the compiler emits it: a fragment
      // in a template nobody instantiates, or a branch the dtype dispatch never takes, emits none.
      const semantic::CompiledEvidence ce = semantic::compiledUse(
          facts_, u.source, u.function, dtype,
          arithmetic ? semantic::CompiledUse::Arithmetic : semantic::CompiledUse::MmaOperand);
      if (ce.state == semantic::CompiledState::Absent)
        continue;
      report(u.lines, what + " in " + (u.function.empty() ? std::string("namespace scope") : u.function), dtype,
             reach_.cxxFunction(u.function), {}, false, &ce);
    }
  }

  // cuBLAS / cuBLASLt asked for a narrow operand or compute type.
  void libraryTypes() {
    for (const cxx::CxxCall &c : facts_.cxx.calls) {
      if (c.category != cxx::CallCategory::Cublas && c.category != cxx::CallCategory::CublasLt)
        continue;
      for (const std::string &arg : c.arguments) {
        const std::string dtype = libraryConstantDtype(arg);
        if (!below(dtype))
          continue;
        report(c.lines, "`" + c.callee + "` with " + arg + " in " + c.function, dtype,
               reach_.cxxFunction(c.function));
        break;
      }
    }
  }

  // `a.to(torch::kHalf)` / `a.half()` in the extension's host code.
  void hostCasts() {
    for (const cxx::CxxCall &c : facts_.cxx.calls) {
      const std::string dtype = semantic::cxxdtype::hostCastDtype(c); // "" in device code
      if (dtype.empty() || !below(dtype) || referenceUses(dtype))
        continue;
      report(c.lines, "`" + c.spelled + "` in extension host code " + c.function, dtype,
             reach_.cxxFunction(c.function));
    }
  }

  const CheckContext &ctx_;
  const Facts &facts_;
  FindingSink &sink_;
  precreach::ForwardReach reach_;
  std::string contract_;
  unsigned contractBits_ = 0;
  std::set<unsigned> reported_;
  std::set<int> splitSources_;
};

class Prec001 final : public Check {
public:
  std::string_view id() const override { return "PREC001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!ctx.problem)
      return;
    Run(ctx, sink)();
  }
};

} // namespace

std::unique_ptr<Check> makePrec001() { return std::make_unique<Prec001>(); }

} // namespace kbaudit::rules
