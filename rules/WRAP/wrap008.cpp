// WRAP008 skipped-normalization: the reference normalizes by a statistic of its input, and
// nothing forward runs combines values across elements, so forward cannot compute that
// statistic; it passes only where the test inputs make the normalization nearly the identity.

#include "all_checks.h"
#include "forward_entry.h"

#include "kbaudit/semantic/cross_element.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::rules {
namespace {

namespace cross = semantic::cross;

/// Up to three distinct `what`s of `sites`, comma-separated.
std::string names(const std::vector<cross::Site> &sites) {
  std::set<std::string> seen;
  std::string out;
  for (const cross::Site &s : sites)
    if (seen.size() < 3 && seen.insert(s.what).second)
      out += (out.empty() ? "" : ", ") + s.what;
  return out;
}

class Wrap008 final : public Check {
public:
  std::string_view id() const override { return "WRAP008"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!ctx.problem || !ctx.problem->reference.found)
      return;
    // What the reference normalizes by, and whether it also contracts (matmul, conv).
    std::vector<cross::Site> statistics;
    const problems::ReferenceSummary &ref = ctx.problem->reference;
    bool refContracts = ref.dominatedBy(problems::OpClass::Matmul) || ref.dominatedBy(problems::OpClass::Conv) ||
                        ref.dominatedBy(problems::OpClass::Attention);
    bool onlyBatchStatistics = true;
    for (const cross::Site &s : cross::referenceSites(ref.facts, ref.found ? ref.modelClass : std::string())) {
      if (s.kind == cross::Kind::Contraction)
        refContracts = true;
      if (s.kind != cross::Kind::Statistic || s.scan)
        continue; // a running sum is a recurrence, not a statistic the output is scaled by
      statistics.push_back(s);
      onlyBatchStatistics = onlyBatchStatistics && s.usesBatchStatistics;
    }
    // A reference that also multiplies matrices or convolves is not a normalization problem:
    // a solution with no contraction anywhere skipped more than a statistic (WRAP001/WRAP003
    // judge that), or found the statistic degenerate (a mean over a dimension of size one).
    if (statistics.empty() || refContracts)
      return;
    if (!forwardFound(ctx.facts, sink))
      return;

    const cross::GradedPath path = cross::gradedPath(ctx.facts);
    // Anything on the path that combines elements may compute the statistic.
    std::vector<cross::Site> unknown;
    for (const cross::Site &s : path.sites) {
      if (s.kind == cross::Kind::Statistic || s.kind == cross::Kind::Contraction)
        return;
      unknown.push_back(s);
    }
    if (!path.otherKernels.empty())
      return; // a reached kernel reduces, contracts, or does work kbaudit cannot classify

    // What keeps the finding from proving the harm, most specific first.
    std::string doubt;
    if (!unknown.empty())
      doubt = "forward's path calls " + names(unknown) + ", which kbaudit cannot classify";
    else if (!path.unreachedReducingKernels.empty())
      doubt = "the file defines " + names(path.unreachedReducingKernels) +
              ", which no static path from forward reaches but a dynamic one might";
    else if (!path.unseenModules.empty())
      doubt = "forward may run code of the local module '" + path.unseenModules.front() + "', which kbaudit does not see";
    else if (onlyBatchStatistics)
      doubt = "the reference's BatchNorm uses its stored running statistics in eval mode, where an element-wise "
              "kernel can be exact; the grader's mode decides";

    std::string pathText;
    LineRange where;
    if (!path.pointwiseKernels.empty()) {
      pathText = "its authored kernel(s) " + names(path.pointwiseKernels) + " only map or copy elements";
      where = path.pointwiseKernels.front().lines;
    } else {
      pathText = "it runs no authored kernel";
      if (const py::Function *fn = ctx.facts.python.findFunction(ctx.facts.kernels.entryPoints.front()))
        where = {fn->lines.begin, fn->lines.begin};
    }
    pathText += unknown.empty() ? " and nothing else on its path reduces" : " and no known call on its path reduces";
    if (!where.valid())
      return;
    sink.report(where, {{"ref", names(statistics)}, {"path", pathText}}, doubt,
                doubt.empty() ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }
};

} // namespace

std::unique_ptr<Check> makeWrap008() { return std::make_unique<Wrap008>(); }

} // namespace kbaudit::rules
