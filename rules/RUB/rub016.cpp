// RUB016 train-eval-divergence: the reference's BatchNorm normalises with each batch's own
// statistics (training mode, which the harness never leaves), and the solution normalises with
// the running statistics instead. A query over the graded path (which arms the harness's inputs
// and training mode take) and the reference's construction.

#include "all_checks.h"

#include "kbaudit/semantic/expr_query.h"

#include "kbaudit/semantic/graded_path.h"

#include <optional>
#include <set>
#include <utility>

namespace kbaudit::rules {
namespace {

bool isBatchNormModule(std::string_view r) {
  return r == "torch.nn.BatchNorm1d" || r == "torch.nn.BatchNorm2d" || r == "torch.nn.BatchNorm3d" ||
         r == "torch.nn.SyncBatchNorm" || r == "torch.nn.LazyBatchNorm2d";
}

bool isFunctionalBatchNorm(std::string_view r) { return r == "torch.nn.functional.batch_norm" || r == "torch.batch_norm"; }

/// The `training` argument of F.batch_norm (keyword, or the sixth positional).
const py::Argument *trainingArgument(const py::Call &c) {
  if (const py::Argument *a = c.keywordArg("training"))
    return a;
  return c.positionalArg(5);
}

/// The training flag's value when the harness calls: literal, or `self.training`.
std::optional<bool> trainingValue(const py::Argument *a, bool training) {
  if (!a)
    return false; // F.batch_norm defaults to training=False
  const py::Expr &e = a->value;
  if (const std::optional<bool> b = semantic::boolLiteral(e))
    return b;
  if (e.kind == py::ExprKind::Attribute && e.root == "self" && e.chain.size() == 1 && e.chain[0].name == "training")
    return training;
  return std::nullopt;
}

bool readsRunningStatistics(const py::Expr &e) {
  for (const std::string &n : e.names)
    if (n.ends_with("running_mean") || n.ends_with("running_var"))
      return true;
  return false;
}

/// The reference normalises with batch statistics: a BatchNorm it never puts in eval mode, or
/// F.batch_norm in training mode.
bool referenceUsesBatchStatistics(const py::PythonFacts &ref) {
  bool batchNorm = false;
  for (const py::Call &c : ref.calls) {
    if (semantic::entersEvalMode(c))
      return false;
    if (isBatchNormModule(c.resolved))
      batchNorm = true;
    if (isFunctionalBatchNorm(c.resolved) && trainingValue(trainingArgument(c), true).value_or(false))
      batchNorm = true;
  }
  return batchNorm;
}

class Rub016 final : public Check {
public:
  std::string_view id() const override { return "RUB016"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!ctx.problem || !ctx.problem->reference.found || ctx.problem->evalMode() ||
        !referenceUsesBatchStatistics(ctx.problem->reference.facts))
      return;
    const semantic::ForwardReach &reach = forwardReach(ctx);
    if (!reach.knownEntry())
      return;
    const semantic::GradedPath path(reach, harnessView(ctx));
    const bool training = path.harness().training && !path.solution().evalInConstructor;
    const py::PythonFacts &py = ctx.facts.python;
    // One finding per run, at the first place the running statistics come in (the constructor's
    // eval(), the fold, the kernel handed them): the later uses follow from it.
    std::optional<std::pair<LineRange, std::string>> first;
    const auto report = [&](LineRange lines, std::string how) {
      if (!first || lines.begin < first->first.begin)
        first.emplace(lines, std::move(how));
    };
    for (const py::Call &c : py.calls) {
      if (!path.runs(c))
        continue;
      // eval() on the module or a BatchNorm submodule while it is built: forward's BatchNorms
      // then use their running statistics.
      if (c.function.ends_with(".__init__") && (c.method == "eval" || c.method == "train") &&
          evalsBatchNorm(reach, c, path.solution().evalInConstructor)) {
        report(c.lines, "its constructor calls `" + c.callee + "(" + (c.args.empty() ? "" : "False") +
                            ")`, so its BatchNorm normalises with running statistics when graded");
        continue;
      }
      if (isFunctionalBatchNorm(c.resolved)) {
        if (trainingValue(trainingArgument(c), training) == false)
          report(c.lines, "`" + c.callee + "` runs with training=False, normalising with the running statistics");
        continue;
      }
      for (const py::Argument &a : c.args)
        if (readsRunningStatistics(a.value)) {
          report(c.lines, "`" + c.callee + "` is handed the running statistics (`" + semantic::quote(a.value) + "`)");
          break;
        }
    }
    // A value taken from the running statistics without a call (`mean, var = bn.running_mean,
    // bn.running_var`); where a call takes them, the call decided above.
    for (const py::Assignment &a : py.assignments)
      if (a.stmt >= 0 && path.runs(a.function) && path.statement(a.stmt).runs && readsRunningStatistics(a.value) &&
          !a.target.ends_with("running_mean") && !a.target.ends_with("running_var") &&
          !anyCallTakes(py, py.statements[static_cast<std::size_t>(a.stmt)]))
        report(a.lines, "`" + a.target + "` is computed from the running statistics");
    if (first)
      sink.report(first->first, {{"how", std::move(first->second)}});
  }

private:
  /// `self.eval()` (on a module with a BatchNorm) or `self.<bn>.eval()` on a BatchNorm submodule.
  static bool evalsBatchNorm(const semantic::ForwardReach &reach, const py::Call &c, bool selfEval) {
    if (!semantic::entersEvalMode(c))
      return false;
    if (c.receiver == "self")
      return selfEval && usesBatchNorm(reach.python());
    for (const py::Expr *v : reach.bindings(c.receiver, c.function))
      if (v->kind == py::ExprKind::Call && isBatchNormModule(v->resolved))
        return true;
    return false;
  }

  static bool anyCallTakes(const py::PythonFacts &py, const py::Stmt &st) {
    for (int ci : st.calls)
      for (const py::Argument &a : py.calls[static_cast<std::size_t>(ci)].args)
        if (readsRunningStatistics(a.value))
          return true;
    return false;
  }

  static bool usesBatchNorm(const py::PythonFacts &py) {
    for (const py::Call &c : py.calls)
      if (isBatchNormModule(c.resolved) || isFunctionalBatchNorm(c.resolved))
        return true;
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeRub016() { return std::make_unique<Rub016>(); }

} // namespace kbaudit::rules
