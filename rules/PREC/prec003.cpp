// PREC003 triton-dot-implicit-tf32: tl.dot on fp32 tiles in an fp32 problem without
// asking for IEEE precision, so Triton multiplies them as TF32 (10-bit mantissa).

#include "all_checks.h"
#include "prec001_reach.h"
#include "semantic_names.h"

#include "kbaudit/semantic/fact_quote.h"

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::rules {
namespace {

using precreach::Reach;

// `os.environ["TRITON_F32_DEFAULT"] = "ieee"` (or setdefault/putenv) makes the default precise.
bool defaultIsIeee(const py::PythonFacts &py) {
  constexpr std::string_view kVar = "TRITON_F32_DEFAULT";
  for (const py::Assignment &a : py.assignments)
    if (a.target.find(kVar) != std::string::npos && staticText(py, a.value) == "ieee")
      return true;
  for (const py::Call &c : py.calls) {
    if (c.method != "setdefault" && c.method != "putenv" && c.method != "__setitem__")
      continue;
    const py::Argument *key = c.positionalArg(0);
    const py::Argument *value = c.positionalArg(1);
    if (key && value && staticText(py, key->value) == kVar && staticText(py, value->value) == "ieee")
      return true;
  }
  return false;
}

struct Verdict {
  bool flag = false;
  std::optional<Confidence> confidence; ///< nullopt: the YAML default
  std::string how;
  std::string evidence;
};

Verdict judgePrecision(const triton::Dot &d, bool envIeee) {
  const std::string &p = d.precision;
  if (p == "ieee")
    return {};
  if (p == "default") {
    if (envIeee)
      return {};
    return {true, std::nullopt, "with the default precision (no input_precision)", ""};
  }
  if (p == "tf32") {
    const bool viaAllow = !d.inputPrecision.present && d.allowTf32.present;
    return {true, Confidence::High,
            viaAllow ? "with allow_tf32=" + semantic::quote(d.allowTf32)
                     : "with input_precision=" + semantic::quote(d.inputPrecision),
            ""};
  }
  if (p == "tf32x3" || p == "bf16x3" || p == "bf16x6")
    // Split-precision emulation: close to fp32 but not IEEE; worth a look, not a verdict.
    return {true, Confidence::Low, "with input_precision=\"" + p + "\" (split-precision emulation)",
            "emulated near-fp32 products, not IEEE fp32"};
  if (p.empty()) {
    const std::string spelled = semantic::quote(d.inputPrecision.present ? d.inputPrecision : d.allowTf32);
    return {true, Confidence::Low, "with precision `" + spelled + "` chosen at run time",
            "precision not statically known"};
  }
  return {};
}

class Prec003 final : public Check {
public:
  std::string_view id() const override { return "PREC003"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!ctx.problem)
      return;
    const std::string contract = ctx.problem->contractDtype();
    if (contract != "fp32" && contract != "fp64")
      return; // TF32 is only a downgrade of fp32-or-wider work
    const Facts &f = ctx.facts;
    const precreach::ForwardReach reach(f);
    const bool envIeee = defaultIsIeee(f.python);
    for (const triton::Dot &d : f.triton.dots) {
      if (d.scaled || narrowOperand(d))
        continue; // narrow operands are PREC001's (a downcast, not an implicit TF32)
      Verdict v = judgePrecision(d, envIeee);
      if (!v.flag)
        continue;
      const Reach r = reach.tritonKernel(d.kernel);
      if (r != Reach::Reached) {
        v.confidence = Confidence::Low;
        const char *why = r == Reach::Unreached ? "no static call path from forward reaches the kernel"
                                                : "kbaudit cannot see how forward reaches the kernel";
        v.evidence = v.evidence.empty() ? why : v.evidence + "; " + why;
      }
      sink.report(d.lines,
                  {{"kernel", f.triton.kernels[d.kernel].name}, {"how", v.how}, {"operands", operandNote(d)},
                   {"contract", contract}},
                  v.evidence, v.confidence);
    }
  }

private:
  static bool narrowOperand(const triton::Dot &d) {
    for (const triton::DotOperand &op : d.operands)
      if (!op.dtype.empty() && op.dtype != "fp32" && op.dtype != "fp64")
        return true;
    return false;
  }

  static std::string operandNote(const triton::Dot &d) {
    for (const triton::DotOperand &op : d.operands)
      if (op.dtype.empty())
        return "tiles of unknown dtype (most likely the problem's fp32 data)";
    return "fp32 tiles";
  }
};

} // namespace

std::unique_ptr<Check> makePrec003() { return std::make_unique<Prec003>(); }

} // namespace kbaudit::rules
