// PREC002 global-precision-state-mutation: process-wide switches that lower fp32 precision.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/expr_query.h"

#include <array>
#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

struct FlagSetting {
  std::string_view target; ///< resolved attribute
  std::string_view effect;
  bool lowersByDefault;    ///< PyTorch's default already is the low-precision value
  /// The contract dtype and library work the switch changes: re-stating a default is only
  /// harmful where a grader turned it off and forward's library work runs under it.
  std::string_view dtype;
  kernels::HeavyOpKind work;
};

// Boolean switches whose `True` lowers precision.
constexpr std::array<FlagSetting, 5> kBoolFlags = {{
    {"torch.backends.cuda.matmul.allow_tf32", "fp32 matmuls run on TF32 tensor cores", false, "fp32",
     kernels::HeavyOpKind::Matmul},
    {"torch.backends.cudnn.allow_tf32", "fp32 convolutions run on TF32 tensor cores", true, "fp32",
     kernels::HeavyOpKind::Conv},
    {"torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
     "fp16 GEMMs may reduce in reduced precision", true, "fp16", kernels::HeavyOpKind::Matmul},
    {"torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
     "bf16 GEMMs may reduce in reduced precision", true, "bf16", kernels::HeavyOpKind::Matmul},
    {"torch.backends.cuda.matmul.allow_fp16_accumulation", "fp16 GEMMs accumulate in fp16", false, "fp16",
     kernels::HeavyOpKind::Matmul},
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
    const Scope scope{ctx, inForceFunctions(ctx.facts)};
    for (const py::Assignment &a : facts.assignments)
      checkAssignment(scope, a, sink);
    for (const py::Call &c : facts.calls)
      checkCall(scope, c, sink);
    for (const cxx::CxxCall &c : ctx.facts.cxx.calls)
      checkCxxCall(c, sink);
  }

private:
  /// Where a setting is in force while forward's math runs: the functions inForceFunctions
  /// collects (forward's path, and what runs at import or construction).
  struct Scope {
    const CheckContext &ctx;
    std::set<std::string> reached;

    bool inForce(const std::string &function) const {
      return reached.count(function) > 0;
    }
    /// Forward hands work of this kind to PyTorch (cuBLAS/cuDNN), which the switch governs.
    bool libraryWork(kernels::HeavyOpKind kind) const {
      for (const kernels::LibraryOp &op : ctx.facts.kernels.libraryOps)
        if (op.kind == kind)
          return true;
      return false;
    }
    bool contractIs(std::string_view dtype) const {
      return ctx.problem && ctx.problem->contractDtype() == dtype; // already canonical
    }
  };

  /// Functions whose settings are in force when forward runs: those forward reaches, and
  /// those run before it, at import or construction (module level, `__init__`, and the file's
  /// own helpers they call).
  static std::set<std::string> inForceFunctions(const Facts &facts) {
    std::set<std::string> in = reachableFromForward(facts);
    std::set<std::string> before = {""};
    for (const py::Function &f : facts.python.functions)
      if (pytext::lastSegment(f.qualname) == "__init__")
        before.insert(f.qualname);
    for (bool grew = true; grew;) {
      grew = false;
      for (const py::Call &c : facts.python.calls)
        if (before.count(c.function))
          if (const py::Function *h = helperCalled(facts.python, c, c.function))
            grew |= before.insert(h->qualname).second;
    }
    in.insert(before.begin(), before.end());
    return in;
  }

  /// The confidence a switch that lowers precision gets: the default (decisive) only when it
  /// is in force while forward runs; a switch in code forward never runs is for review.
  static std::optional<Confidence> placed(const Scope &scope, const std::string &function, bool certain,
                                          std::string &evidence) {
    if (!scope.inForce(function)) {
      evidence += (evidence.empty() ? "" : "; ") + std::string("set in ") + function +
                  ", which runs neither at import, in a constructor, nor on forward's path";
      return Confidence::Low;
    }
    return certain ? std::nullopt : std::optional<Confidence>(Confidence::Low);
  }
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

  static void checkAssignment(const Scope &scope, const py::Assignment &a, FindingSink &sink) {
    if (a.kind != py::Assignment::TargetKind::ModuleAttribute)
      return;
    const py::PythonFacts &facts = scope.ctx.facts.python;
    for (const FlagSetting &flag : kBoolFlags) {
      if (a.resolved != flag.target)
        continue;
      if (semantic::readsBackSetting(facts, a.value, a.function, flag.target))
        return; // puts back the value saved from the same switch: a restore
      const std::optional<bool> value = staticTruth(facts, a.value);
      if (value == false)
        return; // the precise setting
      // A value we cannot see is worth a look but is not evidence of a downgrade. Re-stating
      // PyTorch's own default only matters where the grader turned it off: when the problem's
      // contract is the dtype it governs and forward hands that work to the library.
      std::string evidence = value ? "" : "value not statically known";
      bool certain = value.has_value() && !flag.lowersByDefault;
      if (value.has_value() && flag.lowersByDefault) {
        certain = scope.contractIs(flag.dtype) && scope.libraryWork(flag.work);
        evidence = certain ? "re-enables PyTorch's default while forward's " + std::string(flag.dtype) +
                                 " contract work runs in the library it governs"
                           : "re-states PyTorch's default; forward runs no library work under it in this contract";
      }
      std::optional<Confidence> c = placed(scope, a.function, certain, evidence);
      // Harm from a default depends on the grader having turned it off: decisive, not certain.
      if (!c && flag.lowersByDefault)
        c = Confidence::Medium;
      sink.report(a.lines, {{"setting", a.target + " = " + semantic::quote(a.value)}, {"effect", std::string(flag.effect)}},
                  evidence, c);
      return;
    }
    for (std::string_view target : kPrecisionStrings) {
      if (a.resolved != target)
        continue;
      if (semantic::readsBackSetting(facts, a.value, a.function, target))
        return;
      const std::optional<std::string> value = literalText(facts, a.value);
      if (value && (*value == "ieee" || *value == "none"))
        return;
      std::string evidence = value ? "" : "value not statically known";
      const std::optional<Confidence> c = placed(scope, a.function, value.has_value(), evidence);
      sink.report(a.lines, {{"setting", a.target + " = " + semantic::quote(a.value)}, {"effect", "fp32 work may run as TF32"}},
                  evidence, c);
      return;
    }
  }

  /// A string the expression folds to (directly or through a module binding); a local name
  /// whose value is not a literal is unknown, not its own spelling.
  static std::optional<std::string> literalText(const py::PythonFacts &facts, const py::Expr &e) {
    const py::Expr &v = bindingOf(facts, e);
    if (v.string && v.string->complete)
      return v.string->value;
    return std::nullopt;
  }

  static void checkCall(const Scope &scope, const py::Call &c, FindingSink &sink) {
    const py::PythonFacts &facts = scope.ctx.facts.python;
    const py::Argument *arg = c.positionalArg(0);
    if (c.resolved == "torch.set_float32_matmul_precision") {
      if (!arg)
        arg = c.keywordArg("precision");
      if (arg && semantic::readsBackSetting(facts, arg->value, c.function, {}, "torch.get_float32_matmul_precision"))
        return; // restores the precision saved from torch.get_float32_matmul_precision()
      const std::optional<std::string> value = arg ? literalText(facts, arg->value) : std::nullopt;
      if (value == "highest")
        return;
      std::string evidence = value ? "" : "value not statically known";
      const std::optional<Confidence> conf = placed(scope, c.function, value.has_value(), evidence);
      sink.report(c.lines, {{"setting", "torch.set_float32_matmul_precision(" + (arg ? semantic::quote(arg->value) : "") + ")"},
                            {"effect", "fp32 matmuls may run as TF32 or bf16"}},
                  evidence, conf);
    } else if (c.resolved == "torch.set_default_dtype" || c.resolved == "torch.set_default_tensor_type") {
      if (!arg)
        return;
      if (semantic::readsBackSetting(facts, arg->value, c.function, {}, "torch.get_default_dtype"))
        return;
      const std::optional<std::string> value = staticText(facts, arg->value);
      if (value && !isLowDtype(*value))
        return;
      std::string evidence = value ? "" : "dtype not statically known";
      const std::optional<Confidence> conf = placed(scope, c.function, value.has_value() && isLowDtype(*value), evidence);
      sink.report(c.lines, {{"setting", c.callee + "(" + semantic::quote(arg->value) + ")"},
                            {"effect", "new floating tensors default to half precision"}},
                  evidence, conf);
    }
  }
};

} // namespace

std::unique_ptr<Check> makePrec002() { return std::make_unique<Prec002>(); }

} // namespace kbaudit::rules
