// RUB015 partial-computation: the graded entry computes from a slice of its input bounded by
// a constant or a fraction of the input's size (or a strided subsample) and fills the rest of
// the output by replicating or rescaling that part, so the output matches only on inputs that
// repeat.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/semantic/graded_entry.h"
#include "kbaudit/semantic/partial_compute.h"

#include <algorithm>

namespace kbaudit::rules {
namespace {

/// The reference's entry replicates with the same construct (`expand` of a bias, `cat` of a
/// rotary table): the replication is part of the problem, not a shortcut.
bool referenceReplicatesToo(const CheckContext &ctx, const semantic::GradedEntry &entry, std::string_view construct) {
  if (!ctx.problem || !ctx.problem->reference.found)
    return false;
  const problems::ReferenceSummary &ref = ctx.problem->reference;
  const py::Function *refEntry =
      semantic::referenceEntry(entry, ref.facts, ref.modelClass.empty() ? "Model" : ref.modelClass);
  if (!refEntry)
    return false;
  // `.expand_as(` or `torch.cat(`: the method or function name.
  const std::string method(pytext::lastSegment(construct.substr(0, construct.find('('))));
  return std::any_of(ref.facts.calls.begin(), ref.facts.calls.end(), [&](const py::Call &c) {
    return rubscope::inFunction(c.function, refEntry->qualname) && c.method == method;
  });
}

class Rub015 final : public Check {
public:
  std::string_view id() const override { return "RUB015"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const std::optional<semantic::GradedEntry> entry = semantic::gradedEntry(ctx.facts);
    if (!entry)
      return;
    for (const semantic::PartialComputation &p : semantic::partialComputations(ctx.facts, *entry)) {
      const bool call = !p.fillText.empty() && p.fillText.back() == '(';
      const std::string fill = p.rescale ? "scales a sum over it up by a ratio"
                               : call    ? "replicates it (`" + p.fillText + "...)`)"
                                         : "replicates it (" + p.fillText + ")";
      std::vector<std::string> missing;
      if (!p.computed)
        missing.push_back("no computation lies between the slice and the fill (only views and casts)");
      if (!p.reachesResult)
        missing.push_back("the filled value is not shown to reach the returned value or the output buffer");
      if (call && referenceReplicatesToo(ctx, *entry, p.fillText))
        missing.push_back("the reference's entry replicates with `" + p.fillText + "...)` too");
      std::string evidence = "`" + p.sliceText + "` (" + pytext::lineText(p.slice) + ") feeds the computation; " +
                             pytext::lineText(p.fill) + " " + fill;
      std::optional<Confidence> confidence;
      if (!missing.empty()) {
        confidence = Confidence::Low;
        for (const std::string &m : missing)
          evidence += "; " + m;
      }
      sink.report(p.fill, {{"function", entry->function->qualname}, {"slice", p.sliceText}, {"fill", fill}},
                  std::move(evidence), confidence);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeRub015() { return std::make_unique<Rub015>(); }

} // namespace kbaudit::rules
