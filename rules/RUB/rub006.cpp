// RUB006 input-distribution-sniffing: forward reads a fixed-size sample of the input values
// (`x[:256].abs().max()`, `x.flatten()[:8192]`, a one-program Triton kernel that reduces
// the first N elements) to classify the input's regime, and the classification picks the
// computation.
//
// A checker's stress inputs and a benchmark's random inputs differ in distribution; a
// cheap look at a prefix is enough to tell them apart and route each to a different path.
// PREC005 covers statistics over the whole input choosing precision; this rule is about the
// sample itself feeding a branch. Left alone: slicing to split work into chunks (no
// statistic), statistics over the whole input, guards that only raise.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"
#include "rub_branch_work.h"

#include "kbaudit/semantic/sample_gates.h"

#include <optional>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rub;

using semantic::SampleStrength;
using Sample = semantic::InputSample;

class Scan {
public:
  explicit Scan(const CheckContext &ctx)
      : f_(ctx.facts), reachable_(reachableFromForward(f_)) {}

  void run(FindingSink &sink) {
    const semantic::SampleGates gates(f_, reachable_);
    if (gates.empty())
      return;
    std::set<unsigned> reported;
    for (const py::Branch &b : f_.python.branches) {
      if (!reachable_.count(b.function) || (b.kind != "if" && b.kind != "elif" && b.kind != "conditional"))
        continue;
      const std::optional<Sample> gate = gates.gateOf(b);
      if (!gate || reported.count(gate->lines.begin))
        continue;
      if (report(b, *gate, sink))
        reported.insert(gate->lines.begin);
    }
  }

private:
  const Facts &f_;
  std::set<std::string> reachable_;

  bool report(const py::Branch &b, const Sample &gate, FindingSink &sink) const {
    const std::vector<LineRange> arms = armsOf(f_, b);
    std::string difference;
    bool differs = false;
    if (arms.size() >= 2) {
      const ArmWork first = workIn(f_, b.function, arms.front());
      bool anyWork = first.anyCall;
      for (size_t i = 1; i < arms.size(); ++i) {
        const ArmWork other = workIn(f_, b.function, arms[i]);
        anyWork |= other.anyCall;
        if (first.kernels != other.kernels || first.library != other.library ||
            first.dtypeSet() != other.dtypeSet()) {
          differs = true;
          const ArmWork &richer = first.notes.size() + first.dtypes.size() >= other.notes.size() + other.dtypes.size()
                                      ? first
                                      : other;
          std::set<std::string> seen;
          for (const DtypeUse &d : richer.dtypes)
            if (seen.size() < 3 && seen.insert(d.note).second)
              difference += (difference.empty() ? "" : "; ") + d.note;
          for (const std::string &n : richer.notes)
            if (seen.insert(n).second)
              difference += (difference.empty() ? "" : "; ") + n;
          break;
        }
      }
      if (!anyWork)
        return false; // a guard that only raises or logs
    }
    if (difference.empty())
      difference = "the sides of the branch could not be told apart statically";
    const bool clear = differs && gate.strength == SampleStrength::Strong;
    std::string evidence = "branch at " + lineText(b.lines) + " tests `" + b.condition + "`";
    if (gate.strength == SampleStrength::Weak)
      evidence += "; the sampled statistic is a bare max/min/mean, which may be metadata rather than magnitude";
    sink.report(gate.lines, {{"sample", gate.what}, {"branch", lineText(b.lines)}, {"difference", difference}},
                evidence, clear ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    return true;
  }
};

class Rub006 final : public Check {
public:
  std::string_view id() const override { return "RUB006"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!forwardFound(ctx.facts, sink))
      return;
    Scan(ctx).run(sink);
  }
};

} // namespace

std::unique_ptr<Check> makeRub006() { return std::make_unique<Rub006>(); }

} // namespace kbaudit::rules
