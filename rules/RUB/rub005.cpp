// RUB005 shape-gated-numerics: forward tests for exact problem sizes (`M == 16384`,
// `(M, N, K) == (4096, 4096, 4096)`, `n in (4096, 8192)`) and the sides of that dispatch
// compute at different precision, so the checker's shapes can take the exact path while
// the benchmark's shapes take the cheap one.
//
// Shape dispatch is everywhere in honest solutions (tile sizes, split-K, a GEMV for
// M == 1): it stays quiet unless one side casts to a lower dtype (or runs a tf32 dot) that
// the other side does not use. Thresholds (`M <= 32`) and small constants (`D == 128`) are
// left alone: the suspicious form is equality with a large, specific size.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"
#include "rub_branch_work.h"

#include "kbaudit/semantic/size_gates.h"

#include <optional>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rub;

class Rub005 final : public Check {
public:
  std::string_view id() const override { return "RUB005"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    const std::set<std::string> reachable = reachableFromForward(f);
    const semantic::SizeGateNames decisions(f.python, reachable);
    for (const py::Branch &b : f.python.branches) {
      if (!reachable.count(b.function) || (b.kind != "if" && b.kind != "elif"))
        continue;
      std::optional<std::string> gate = semantic::exactSizeGate(f.python, std::string_view(b.condition), b.function);
      if (!gate)
        for (const std::string &n : b.names)
          if (std::optional<std::string> through = decisions.gateOf(b.function, n))
            gate = *through + " (through " + n + ")";
      if (!gate)
        continue;
      reportDifference(ctx, b, *gate, sink);
    }
  }

private:
  static bool reportDifference(const CheckContext &ctx, const py::Branch &b, const std::string &gate,
                               FindingSink &sink) {
    const std::vector<LineRange> arms = armsOf(ctx.facts, b);
    if (arms.size() < 2)
      return false;
    const ArmWork gated = workIn(ctx.facts, b.function, arms.front());
    for (size_t i = 1; i < arms.size(); ++i) {
      const ArmWork other = workIn(ctx.facts, b.function, arms[i]);
      std::vector<DtypeUse> lower = lowerIn(gated, other, ctx.problem);
      std::string side = "the block under the test (" + lineText(arms.front()) + ")";
      if (lower.empty()) {
        lower = lowerIn(other, gated, ctx.problem);
        side = "the path taken otherwise (" + (arms[i].valid() ? lineText(arms[i]) : std::string("skipping the block")) + ")";
      }
      if (lower.empty())
        continue;
      std::string difference;
      std::set<std::string> seen;
      for (const DtypeUse &d : lower)
        if (seen.size() < 3 && seen.insert(d.note).second)
          difference += (difference.empty() ? "" : "; ") + d.note;
      difference = side + " " + difference + ", the other side does not";
      const unsigned bits = precisionBits(lower.front().dtype);
      // Without a contract only a cast to 8 bits or fewer is unambiguous: a bf16 side may
      // be the problem's own precision.
      const bool clear = ctx.problem ? !ctx.problem->contractDtype().empty() : bits <= 8;
      sink.report(b.lines, {{"condition", gate}, {"difference", difference}},
                  "dispatch at " + lineText(b.lines) + " on `" + b.condition + "`",
                  clear ? std::nullopt : std::optional<Confidence>(Confidence::Low));
      return true;
    }
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeRub005() { return std::make_unique<Rub005>(); }

} // namespace kbaudit::rules
