// MEM004 sampled-content-cache: a cache of results or derived data is revalidated by
// comparing only a few elements (or a cheap checksum) of the input against stored state.

#include "all_checks.h"
#include "mem_python.h"
#include "semantic_names.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/identity_cache.h"
#include "kbaudit/semantic/sampled_key.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace kbaudit::rules {
namespace {

class Mem004 final : public Check {
public:
  std::string_view id() const override { return "MEM004"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const std::set<std::string> reach = mem::reachableFunctions(f);
    std::map<const py::Function *, FunctionSamples> byFunction;
    for (const py::Branch &b : f.python.branches) {
      if (!reach.count(b.function) || (b.kind != "if" && b.kind != "elif"))
        continue;
      if (const py::Function *fn = f.python.findFunction(b.function))
        checkBranch(f, *fn, b, byFunction[fn], sink);
    }
  }

private:
  using Samples = std::map<std::string, std::string>;

  /// What every branch of one function asks, found once per function (a function may hold
  /// hundreds of branches): its inputs, and its locals holding a sample or a checksum of them.
  struct FunctionSamples {
    std::optional<std::set<std::string>> inputs;
    std::optional<Samples> samples, checksums;
  };

  /// Locals holding a sample or checksum of an input (`probe = x[0, :16].clone()`).
  static Samples sampleLocals(const Facts &f, const py::Function &fn, const std::set<std::string> &params,
                              bool checksum) {
    Samples out;
    for (const py::Assignment &a : f.python.assignments) {
      if (a.function != fn.qualname || a.kind != py::Assignment::TargetKind::Name)
        continue;
      const std::string s = checksum ? semantic::wholeReductionOf(a.value, params)
                                     : semantic::constantSampleOf(a.value, params);
      if (!s.empty())
        out[a.target] = s;
    }
    return out;
  }

  /// The branch guards a cache: a hit returns stored state, or a miss refills `self`.
  static bool guardsCache(const Facts &f, const py::Function &fn, const py::Branch &b) {
    const semantic::BranchBlocks blocks = semantic::blocksOf(b);
    for (const semantic::ReturnStatement &r : semantic::returnsOf(f.python, fn))
      if ((semantic::within(r.lines, blocks.body) || semantic::within(r.lines, blocks.orelse)) && semantic::isStoredState(*r.value, f.python))
        return true;
    for (const py::Assignment &a : f.python.assignments)
      if (a.function == fn.qualname && (semantic::within(a.lines, blocks.body) || semantic::within(a.lines, blocks.orelse)) &&
          (a.kind == py::Assignment::TargetKind::SelfAttribute || a.target.rfind("self.", 0) == 0))
        return true;
    return false;
  }

  static void checkBranch(const Facts &f, const py::Function &fn, const py::Branch &b, FunctionSamples &known,
                          FindingSink &sink) {
    if (!semantic::testReadsState(f.python, b))
      return;
    const py::Expr &condition = b.test;
    // Inputs as the caller passed them: a sample of a sample is still a sample.
    if (!known.inputs)
      known.inputs = semantic::inputAliases(f.python, fn);
    const std::set<std::string> &inputs = *known.inputs;
    if (inputs.empty())
      return;
    if (!known.samples)
      known.samples = sampleLocals(f, fn, inputs, false);
    std::string sample = semantic::constantSampleOf(condition, inputs);
    for (const auto &[name, s] : *known.samples)
      if (sample.empty() && semantic::reads(condition, name))
        sample = s;
    if (!sample.empty()) {
      if (guardsCache(f, fn, b))
        sink.report(b.lines, {{"sample", sample}, {"function", fn.qualname}},
                    "the rest of the input is never compared, so an input that differs outside the sample reuses the cache");
      return;
    }
    // A full-tensor checksum reads every element but collides easily: listed for review.
    std::string checksum;
    for (const semantic::ConditionComparison &c : semantic::conditionComparisons(b)) {
      if (c.op != "==" && c.op != "!=")
        continue;
      for (const py::Expr *side : {&c.left.value, &c.right.value}) {
        const py::Expr &other = side == &c.left.value ? c.right.value : c.left.value;
        if (!semantic::isStoredState(other, f.python))
          continue;
        std::string s = semantic::wholeReductionOf(*side, inputs);
        if (!known.checksums)
          known.checksums = sampleLocals(f, fn, inputs, true);
        for (const auto &[name, v] : *known.checksums)
          if (s.empty() && semantic::reads(*side, name))
            s = v;
        if (!s.empty())
          checksum = s;
      }
    }
    if (!checksum.empty() && guardsCache(f, fn, b))
      sink.report(b.lines, {{"sample", checksum}, {"function", fn.qualname}},
                  "a single reduction stands for the contents; different inputs with the same checksum reuse the cache",
                  Confidence::Low);
  }
};

} // namespace

std::unique_ptr<Check> makeMem004() { return std::make_unique<Mem004>(); }

} // namespace kbaudit::rules
