// PREC002 global-precision-state-mutation: process-wide switches that lower fp32 precision.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/precision_switch.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

class Prec002 final : public Check {
public:
  std::string_view id() const override { return "PREC002"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const py::PythonFacts &facts = ctx.facts.python;
    const Scope scope{ctx, semantic::functionsInForceAtEntry(ctx.facts)};
    for (const py::Assignment &a : facts.assignments)
      checkAssignment(scope, a, sink);
    for (const py::Call &c : facts.calls)
      checkCall(scope, c, sink);
    for (const cxx::CxxCall &c : ctx.facts.cxx.calls)
      checkCxxCall(c, sink);
  }

private:
  /// Where a setting is in force while forward's math runs: the functions
  /// semantic::functionsInForceAtEntry collects (forward's path, import, construction).
  struct Scope {
    const CheckContext &ctx;
    std::set<std::string> reached;

    /// Re-stating this flag's default matters only where a grader may have turned it off:
    /// the contract is the dtype it governs and forward hands that work to PyTorch's library.
    bool defaultMatters(const semantic::PrecisionFlag &flag) const {
      const std::vector<kernels::LibraryOp> &ops = ctx.facts.kernels.libraryOps;
      return ctx.problem && ctx.problem->contractDtype() == flag.dtype && // already canonical
             std::any_of(ops.begin(), ops.end(), [&](const kernels::LibraryOp &op) { return op.kind == flag.work; });
    }
  };

  /// The confidence a switch that lowers precision gets: the default (decisive) only when it
  /// is in force while forward runs; a switch in code forward never runs is for review.
  static std::optional<Confidence> placed(const Scope &scope, const std::string &function, bool certain,
                                          std::string &evidence) {
    if (!scope.reached.count(function)) {
      evidence += (evidence.empty() ? "" : "; ") + std::string("set in ") + function +
                  ", which runs neither at import, in a constructor, nor on forward's path";
      return Confidence::Low;
    }
    return certain ? std::nullopt : std::optional<Confidence>(Confidence::Low);
  }
  /// Reports a setting whose value is statically known (`known`) or not, placed as above.
  static void reportPlaced(const Scope &scope, const std::string &function, LineRange lines, const std::string &setting,
                           const std::string &effect, bool known, bool certain, FindingSink &sink,
                           std::string_view unknown = "value not statically known") {
    std::string evidence = known ? "" : std::string(unknown);
    const std::optional<Confidence> conf = placed(scope, function, certain, evidence);
    sink.report(lines, {{"setting", setting}, {"effect", effect}}, evidence, conf);
  }
  // The same switches from extension code: at::globalContext().setAllowTF32CuBLAS(true),
  // setFloat32MatmulPrecision("high"), cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH).
  static void checkCxxCall(const cxx::CxxCall &c, FindingSink &sink) {
    if (const std::optional<std::string> effect = semantic::cxxPrecisionLowering(c))
      sink.report(c.lines, {{"setting", c.spelled + "(" + (c.arguments.empty() ? "" : c.arguments.back()) + ")"},
                            {"effect", *effect}});
  }

  static void checkAssignment(const Scope &scope, const py::Assignment &a, FindingSink &sink) {
    if (a.kind != py::Assignment::TargetKind::ModuleAttribute)
      return;
    const py::PythonFacts &facts = scope.ctx.facts.python;
    if (const semantic::PrecisionFlag *found = semantic::precisionFlag(a.resolved)) {
      const semantic::PrecisionFlag &flag = *found;
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
        certain = scope.defaultMatters(flag);
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
    if (semantic::isPrecisionString(a.resolved)) {
      if (semantic::readsBackSetting(facts, a.value, a.function, a.resolved))
        return;
      const std::optional<std::string> value = semantic::staticString(facts, a.value);
      if (value && (*value == "ieee" || *value == "none"))
        return;
      reportPlaced(scope, a.function, a.lines, a.target + " = " + semantic::quote(a.value), "fp32 work may run as TF32",
                   value.has_value(), value.has_value(), sink);
    }
  }

  static void checkCall(const Scope &scope, const py::Call &c, FindingSink &sink) {
    const py::PythonFacts &facts = scope.ctx.facts.python;
    const py::Argument *arg = c.positionalArg(0);
    if (c.resolved == "torch.set_float32_matmul_precision") {
      if (!arg)
        arg = c.keywordArg("precision");
      if (arg && semantic::readsBackSetting(facts, arg->value, c.function, {}, "torch.get_float32_matmul_precision"))
        return; // restores the precision saved from torch.get_float32_matmul_precision()
      const std::optional<std::string> value = arg ? semantic::staticString(facts, arg->value) : std::nullopt;
      if (value == "highest")
        return;
      reportPlaced(scope, c.function, c.lines,
                   "torch.set_float32_matmul_precision(" + (arg ? semantic::quote(arg->value) : "") + ")",
                   "fp32 matmuls may run as TF32 or bf16", value.has_value(), value.has_value(), sink);
    } else if (c.resolved == "torch.set_default_dtype" || c.resolved == "torch.set_default_tensor_type") {
      if (!arg)
        return;
      if (semantic::readsBackSetting(facts, arg->value, c.function, {}, "torch.get_default_dtype"))
        return;
      const std::optional<std::string> value = staticText(facts, arg->value);
      if (value && !semantic::isLowDtypeSpelling(*value))
        return;
      reportPlaced(scope, c.function, c.lines, c.callee + "(" + semantic::quote(arg->value) + ")",
                   "new floating tensors default to half precision", value.has_value(),
                   value.has_value() && semantic::isLowDtypeSpelling(*value), sink, "dtype not statically known");
    }
  }
};

} // namespace

std::unique_ptr<Check> makePrec002() { return std::make_unique<Prec002>(); }

} // namespace kbaudit::rules
