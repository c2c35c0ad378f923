// PREC002 global-precision-state-mutation: process-wide switches that lower fp32 precision.

#include "all_checks.h"
#include "static_value.h"

#include <array>
#include <string_view>

namespace kbaudit::rules {
namespace {

struct FlagSetting {
  std::string_view target; ///< resolved attribute
  std::string_view effect;
  bool lowersByDefault;    ///< PyTorch's default already is the low-precision value
};

// Boolean switches whose `True` lowers precision.
constexpr std::array<FlagSetting, 5> kBoolFlags = {{
    {"torch.backends.cuda.matmul.allow_tf32", "fp32 matmuls run on TF32 tensor cores", false},
    {"torch.backends.cudnn.allow_tf32", "fp32 convolutions run on TF32 tensor cores", true},
    {"torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
     "fp16 GEMMs may reduce in reduced precision", true},
    {"torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
     "bf16 GEMMs may reduce in reduced precision", true},
    {"torch.backends.cuda.matmul.allow_fp16_accumulation", "fp16 GEMMs accumulate in fp16", false},
}};

// The newer string API: any value but "ieee"/"none" lowers precision.
constexpr std::array<std::string_view, 5> kPrecisionStrings = {
    "torch.backends.fp32_precision", "torch.backends.cuda.matmul.fp32_precision",
    "torch.backends.cudnn.fp32_precision", "torch.backends.cudnn.conv.fp32_precision",
    "torch.backends.cudnn.rnn.fp32_precision"};

bool isLowDtype(std::string_view t) {
  for (std::string_view low : {"float16", "half", "bfloat16", "float8", "HalfTensor", "BFloat16Tensor"})
    if (t.find(low) != std::string_view::npos)
      return true;
  return false;
}

class Prec002 final : public Check {
public:
  std::string_view id() const override { return "PREC002"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const py::PythonFacts &facts = ctx.facts.python;
    for (const py::Assignment &a : facts.assignments)
      checkAssignment(facts, a, sink);
    for (const py::Call &c : facts.calls)
      checkCall(facts, c, sink);
    for (const cxx::CxxCall &c : ctx.facts.cxx.calls)
      checkCxxCall(c, sink);
  }

private:
  // The same switches from extension code: at::globalContext().setAllowTF32CuBLAS(true),
  // setFloat32MatmulPrecision("high"), cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH).
  static void checkCxxCall(const cxx::CxxCall &c, FindingSink &sink) {
    const std::string_view callee = c.callee;
    const auto method = callee.substr(callee.rfind(':') == std::string_view::npos ? 0 : callee.rfind(':') + 1);
    const std::string arg = c.arguments.empty() ? "" : c.arguments.back();
    std::string effect;
    if (method == "setAllowTF32CuBLAS" || method == "setAllowTF32CuDNN" || method == "setAllowFP16ReductionCuBLAS" ||
        method == "setAllowBF16ReductionCuBLAS") {
      if (arg == "false" || arg == "0")
        return;
      effect = method == "setAllowTF32CuDNN" ? "fp32 convolutions run on TF32 tensor cores"
               : method == "setAllowTF32CuBLAS" ? "fp32 matmuls run on TF32 tensor cores"
                                                : "half-precision GEMMs may reduce in reduced precision";
    } else if (method == "setFloat32MatmulPrecision") {
      if (arg.find("highest") != std::string::npos || arg.find("HIGHEST") != std::string::npos)
        return;
      effect = "fp32 matmuls may run as TF32 or bf16";
    } else if (method == "cublasSetMathMode") {
      if (arg.find("TF32") == std::string::npos && arg.find("TENSOR_OP") == std::string::npos)
        return;
      effect = "cuBLAS fp32 GEMMs run on TF32 tensor cores";
    } else {
      return;
    }
    sink.report(c.lines, {{"setting", c.spelled + "(" + arg + ")"}, {"effect", effect}});
  }

  static void checkAssignment(const py::PythonFacts &facts, const py::Assignment &a, FindingSink &sink) {
    if (a.kind != py::Assignment::TargetKind::ModuleAttribute)
      return;
    for (const FlagSetting &flag : kBoolFlags) {
      if (a.resolved != flag.target)
        continue;
      const std::optional<bool> value = staticTruth(facts, a.value);
      if (value == false)
        return; // the precise setting
      // Re-stating PyTorch's own default, or a value we cannot see, is worth a look but
      // is not evidence of a downgrade on its own.
      const bool certain = value.has_value() && !flag.lowersByDefault;
      sink.report(a.lines, {{"setting", a.target + " = " + a.value.text}, {"effect", std::string(flag.effect)}},
                  value ? "" : "value not statically known",
                  certain ? std::nullopt : std::optional<Confidence>(Confidence::Low));
      return;
    }
    for (std::string_view target : kPrecisionStrings) {
      if (a.resolved != target)
        continue;
      const std::optional<std::string> value = staticText(facts, a.value);
      if (value && (*value == "ieee" || *value == "none"))
        return;
      sink.report(a.lines, {{"setting", a.target + " = " + a.value.text}, {"effect", "fp32 work may run as TF32"}},
                  value ? "" : "value not statically known",
                  value ? std::nullopt : std::optional<Confidence>(Confidence::Low));
      return;
    }
  }

  static void checkCall(const py::PythonFacts &facts, const py::Call &c, FindingSink &sink) {
    const py::Argument *arg = c.positionalArg(0);
    if (c.resolved == "torch.set_float32_matmul_precision") {
      if (!arg)
        arg = c.keywordArg("precision");
      const std::optional<std::string> value = arg ? staticText(facts, arg->value) : std::nullopt;
      if (value == "highest")
        return;
      sink.report(c.lines, {{"setting", "torch.set_float32_matmul_precision(" + (arg ? arg->value.text : "") + ")"},
                            {"effect", "fp32 matmuls may run as TF32 or bf16"}},
                  value ? "" : "value not statically known",
                  value ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    } else if (c.resolved == "torch.set_default_dtype" || c.resolved == "torch.set_default_tensor_type") {
      if (!arg)
        return;
      const std::optional<std::string> value = staticText(facts, arg->value);
      if (value && !isLowDtype(*value))
        return;
      sink.report(c.lines, {{"setting", c.callee + "(" + arg->value.text + ")"},
                            {"effect", "new floating tensors default to half precision"}},
                  value ? "" : "dtype not statically known",
                  value ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    }
  }
};

} // namespace

std::unique_ptr<Check> makePrec002() { return std::make_unique<Prec002>(); }

} // namespace kbaudit::rules
