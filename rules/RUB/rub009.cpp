// RUB009 ignored-input: a function of the reference's public API, redefined by the solution,
// never reads an input the reference's version computes from, so its result cannot depend
// on that input and the graded path passes only while the grader never varies it.

#include "all_checks.h"

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/semantic/api_contract.h"

#include <algorithm>

namespace kbaudit::rules {
namespace {

class Rub009 final : public Check {
public:
  std::string_view id() const override { return "RUB009"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!ctx.problem || !ctx.problem->reference.found) {
      sink.skipped("needs the problem's reference.py to know which inputs its API computes from");
      return;
    }
    const problems::ReferenceSummary &ref = ctx.problem->reference;
    const std::string modelClass = ref.modelClass.empty() ? "Model" : ref.modelClass;
    for (const semantic::IgnoredInput &i : semantic::ignoredInputs(ctx.facts.python, ref.facts, modelClass)) {
      // The `def` line itself, below any decorators (the function's range includes them).
      unsigned line = i.solution->lines.begin;
      for (const py::Decorator &d : i.solution->decorators)
        line = std::max(line, d.lines.end + 1);
      const LineRange def{line, line};
      sink.report(def, {{"function", i.solution->qualname}, {"parameter", i.parameter}},
                  "reference.py's " + i.reference->qualname + " reads `" + i.parameter + "`; the solution's body never mentions it");
    }
  }
};

} // namespace

std::unique_ptr<Check> makeRub009() { return std::make_unique<Rub009>(); }

} // namespace kbaudit::rules
