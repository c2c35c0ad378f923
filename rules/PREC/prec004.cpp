// PREC004 contract-precision-bypass: a low-precision contract (fp8, int4) computed in a
// wider type, so the instruction class the problem promises is never used.

#include "all_checks.h"
#include "prec004_evidence.h"

#include <algorithm>

namespace kbaudit::rules {
namespace {

class Prec004 final : public Check {
public:
  std::string_view id() const override { return "PREC004"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const problems::ProblemContext &problem = *ctx.problem;
    const std::string contract = problem.contractDtype();
    const bool fp8 = contract.starts_with("fp8") || (problem.policy && problem.policy->demands("fp8_mma"));
    const bool int4 = problem.policy && problem.policy->demands("int4_unpack_in_kernel");
    if (!fp8 && !int4) {
      sink.skipped(contract == "int4"
                       ? "int4 contract, but no suite policy requires in-kernel unpacking for this problem"
                       : "the problem's contract (" + (contract.empty() ? std::string("unknown") : contract) +
                             ") is not a low-precision contract");
      return;
    }
    bool unresolved = false;
    for (const Diagnostic &d : ctx.facts.embedded.diagnostics)
      unresolved |= d.code == "embed-unresolved";
    if (fp8)
      reportFirst(fp8Evidence(ctx.facts), "fp8 (e4m3) tensor-core MMA", unresolved, sink);
    if (int4)
      reportFirst(int4Evidence(ctx.facts), "int4 weights unpacked inside the GEMM kernel", unresolved, sink);
  }

private:
  // One finding per contract: the first widening on the compute path, with the count of
  // others in the evidence, so a file with twenty upcasts does not produce twenty quotes.
  static void reportFirst(const BypassEvidence &ev, const char *promised, bool unresolvedEmbedded,
                          FindingSink &sink) {
    if (ev.widenings.empty())
      return;
    const Widening &first = ev.widenings.front();
    std::string evidence = first.detail;
    if (ev.widenings.size() > 1)
      evidence += "; " + std::to_string(ev.widenings.size() - 1) + " more widening site(s)";
    std::optional<Confidence> confidence;
    if (!ev.lowPrecisionCompute.empty()) {
      // Both paths exist: the promised instructions run for some inputs. Worth a review,
      // not a verdict on its own.
      evidence += "; but " + ev.lowPrecisionCompute.front().detail + " (line " +
                  std::to_string(ev.lowPrecisionCompute.front().lines.begin) + ") uses the contract precision";
      confidence = Confidence::Low;
    } else if (unresolvedEmbedded && std::all_of(ev.widenings.begin(), ev.widenings.end(),
                                                  [](const Widening &w) { return w.pythonSide; })) {
      // Kernel source kbaudit could not recover may hold the promised instructions.
      evidence += "; some embedded kernel source could not be recovered statically";
      confidence = Confidence::Low;
    }
    sink.report(first.lines, {{"promised", promised}, {"wide", first.wideType}, {"how", first.how}}, evidence,
                confidence);
  }
};

} // namespace

std::unique_ptr<Check> makePrec004() { return std::make_unique<Prec004>(); }

} // namespace kbaudit::rules
