// RUB009 ignored-input: a function the grader calls never reads one of its inputs, so its
// result cannot depend on that input and the graded path passes only while the grader never
// varies it. Two sources of functions: the reference's public API the solution redefines
// (judged against the reference's own reads), and the suite's graded entry point (forward,
// custom_kernel(data), kernel(output, *inputs)), judged with or without a reference.

#include "all_checks.h"

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/semantic/api_contract.h"
#include "kbaudit/semantic/graded_entry.h"

#include <algorithm>
#include <set>
#include <utility>

namespace kbaudit::rules {
namespace {

/// The `def` line itself, below any decorators (the function's range includes them).
LineRange defLine(const py::Function &f) {
  unsigned line = f.lines.begin;
  for (const py::Decorator &d : f.decorators)
    line = std::max(line, d.lines.end + 1);
  return {line, line};
}

class Rub009 final : public Check {
public:
  std::string_view id() const override { return "RUB009"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const bool haveReference = ctx.problem && ctx.problem->reference.found;
    std::set<std::pair<std::string, std::string>> reported; // (function, parameter)
    if (haveReference) {
      const problems::ReferenceSummary &ref = ctx.problem->reference;
      const std::string modelClass = ref.modelClass.empty() ? "Model" : ref.modelClass;
      for (const semantic::IgnoredInput &i : semantic::ignoredInputs(ctx.facts.python, ref.facts, modelClass)) {
        if (semantic::replacedByDecorator(ctx.facts.python, *i.solution))
          continue; // the body is not what callers get
        reported.insert({i.solution->qualname, i.parameter});
        sink.report(defLine(*i.solution),
                    {{"function", i.solution->qualname},
                     {"parameter", i.parameter},
                     {"basis", "the reference's " + i.reference->qualname + " computes from it"}},
                    "reference.py's " + i.reference->qualname + " reads `" + i.parameter +
                        "`; the solution's body never mentions it");
      }
    }
    judgeEntry(ctx, haveReference, reported, sink);
  }

private:
  /// The graded entry point's own inputs, matched by position with the reference's entry
  /// when there is one (parameters may be renamed: `forward(self, A, B)` vs `forward(self, a, b)`).
  static void judgeEntry(const CheckContext &ctx, bool haveReference,
                         const std::set<std::pair<std::string, std::string>> &reported, FindingSink &sink) {
    const std::optional<semantic::GradedEntry> entry = semantic::gradedEntry(ctx.facts);
    if (!entry || semantic::replacedByDecorator(ctx.facts.python, *entry->function))
      return; // the body is not what the harness calls
    const py::Function *refEntry = nullptr;
    if (haveReference) {
      const problems::ReferenceSummary &ref = ctx.problem->reference;
      refEntry = semantic::referenceEntry(*entry, ref.facts, ref.modelClass.empty() ? "Model" : ref.modelClass);
    }
    const std::vector<semantic::UnreadInput> unread = semantic::unreadEntryInputs(*entry, refEntry);
    // Without a reference, an entry that reads none of its inputs (nor `data`, which carries
    // them all) returns the same values and shapes whatever the grader passes: no problem's
    // answer is independent of every input. One ignored input among others may be an
    // argument the problem passes but never uses, which only the reference could tell.
    const bool readsNothing = unread.size() == entry->inputs.size();
    for (const semantic::UnreadInput &u : unread) {
      if (reported.count({entry->function->qualname, u.parameter}))
        continue;
      std::string basis;
      std::string evidence;
      std::optional<Confidence> confidence;
      if (refEntry) {
        basis = "the reference's " + refEntry->qualname + " computes from it (as `" + u.referenceParameter + "`)";
        evidence = "reference.py's " + refEntry->qualname + " reads its input `" + u.referenceParameter +
                   "` at the same position; the graded entry never mentions `" + u.parameter + "`";
      } else if (readsNothing) {
        basis = "the graded entry reads none of its inputs, so its result is the same for any input";
        evidence = "no input of the graded entry is read, and no reference.py is known to compare with";
      } else {
        basis = "no reference.py is known to say whether the problem uses it";
        evidence = "other inputs are read; only the reference could tell whether this one matters";
        confidence = Confidence::Low;
      }
      sink.report(defLine(*entry->function),
                  {{"function", entry->function->qualname}, {"parameter", u.parameter}, {"basis", basis}},
                  std::move(evidence), confidence);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeRub009() { return std::make_unique<Rub009>(); }

} // namespace kbaudit::rules
