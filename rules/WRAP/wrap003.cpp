// WRAP003 fig-leaf-kernel: the authored kernels forward reaches only map or copy elements,
// while the operations that dominate the reference (GEMMs, convolutions, attention, scans,
// sorts) run in PyTorch.

#include "all_checks.h"
#include "op_class.h"

#include "kbaudit/semantic/extension_sources.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::rules {
namespace {

using kernels::HeavyOpKind;
using kernels::KernelWork;
using problems::OpClass;

/// Whether a torch op of kind `op` performs work of the reference's class `cls`: attention
/// and convolutions are GEMMs underneath, and a fused attention op contains the GEMMs.
bool performs(HeavyOpKind op, OpClass cls) {
  if (opClassOf(op) == cls)
    return true;
  if (op == HeavyOpKind::Matmul)
    return cls == OpClass::Attention || cls == OpClass::Conv;
  if (op == HeavyOpKind::Attention)
    return cls == OpClass::Matmul;
  return false;
}

bool isHeavyClass(OpClass c) {
  return c == OpClass::Matmul || c == OpClass::Conv || c == OpClass::Attention || c == OpClass::Scan ||
         c == OpClass::Sort;
}

class Wrap003 final : public Check {
public:
  std::string_view id() const override { return "WRAP003"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const kernels::KernelInventory &inv = ctx.facts.kernels;
    const problems::ProblemContext &problem = *ctx.problem;
    if (!inv.anyReached())
      return; // nothing authored runs: WRAP001's case

    // The reference's heavy classes the problem expects in the kernel, strongest first.
    std::vector<OpClass> expected;
    for (OpClass c : problem.reference.dominantOps)
      if (isHeavyClass(c) && !(problem.policy && problem.policy->allowsLibrary(c)))
        expected.push_back(c);
    if (expected.empty())
      return; // an element-wise or reduction problem: an element-wise kernel may be all of it

    // Every reached kernel must be known to only map or copy elements; a kernel with a
    // dot, a reduction, a scan or work kbaudit cannot classify may be doing the heavy part.
    std::vector<const kernels::Kernel *> reached;
    bool anyCopyOnly = false;
    for (const kernels::Kernel &k : inv.kernels) {
      if (!k.reachedFromForward)
        continue;
      if (k.work != KernelWork::Elementwise && k.work != KernelWork::Copy)
        return;
      anyCopyOnly = anyCopyOnly || k.work == KernelWork::Copy;
      reached.push_back(&k);
    }

    // CUDA kernels are classified from their bodies; an extension that also runs a GEMM
    // library (the torch op may be a fallback or a self-check) is WRAP002's case, not a fig
    // leaf next to torch.
    if (semantic::extensionRunsComputeLibrary(ctx.facts, reached))
      return;

    const kernels::LibraryOp *evidence = nullptr;
    OpClass matched = expected.front();
    std::set<std::string> callees;
    std::string ops;
    for (const kernels::LibraryOp &op : inv.libraryOps) {
      for (OpClass c : expected) {
        if (!performs(op.kind, c))
          continue;
        // Prefer evidence for the reference's strongest class, then the earliest line.
        const bool stronger = !evidence || (c == expected.front() && matched != expected.front());
        const bool sameClassEarlier = evidence && c == matched && op.lines.begin < evidence->lines.begin;
        if (stronger || sameClassEarlier) {
          evidence = &op;
          matched = c;
        }
        break;
      }
    }
    if (!evidence)
      return;
    for (const kernels::LibraryOp &op : inv.libraryOps)
      if (performs(op.kind, matched) && callees.size() < 3 && callees.insert(op.callee).second)
        ops += (ops.empty() ? "" : ", ") + op.callee;

    std::string names;
    for (std::size_t i = 0; i < reached.size() && i < 3; ++i)
      names += (i ? ", " : "") + reached[i]->name;
    if (reached.size() > 3)
      names += ", ...";

    // Torch doing only a secondary class of the reference (a scan next to a GEMM the facts
    // do not show) is weaker evidence than torch doing the dominant one.
    const bool dominant = matched == expected.front();
    sink.report(evidence->lines,
                {{"kernels", names},
                 {"work", anyCopyOnly && reached.size() == 1 ? "copy" : "element-wise"},
                 {"op", problems::opClassName(matched)},
                 {"calls", ops}},
                dominant ? "" : "torch performs a secondary operation class of the reference",
                dominant ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }
};

} // namespace

std::unique_ptr<Check> makeWrap003() { return std::make_unique<Wrap003>(); }

} // namespace kbaudit::rules
