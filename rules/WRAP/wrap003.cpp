// WRAP003 fig-leaf-kernel: the authored kernels forward reaches only map or copy elements,
// while the operations that dominate the reference (GEMMs, convolutions, attention, scans,
// sorts) run in PyTorch.

#include "all_checks.h"
#include "op_class.h"

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

/// A library that does compute (not ATen: a cast or an allocation is ATen too).
bool isComputeLibrary(cxx::CallCategory c) {
  return cxx::isLibraryCompute(c) && c != cxx::CallCategory::Aten;
}

/// The extension holding a reached CUDA kernel also runs CUTLASS, CuTe, cuBLAS(Lt), cuDNN
/// or CUB (a call, or a CUTLASS/CuTe operator type it instantiates) anywhere in its sources:
/// the heavy work may run there (WRAP002 judges library calls), so the torch operator
/// forward reaches may be a fallback or a self-check rather than the whole answer. Export
/// names are not required to match: solutions build `functions=` lists and look exports up
/// dynamically.
bool extensionRunsLibrary(const Facts &f, const std::vector<const kernels::Kernel *> &reached) {
  const auto moduleOf = [&](int source) {
    return source >= 0 && static_cast<std::size_t>(source) < f.embedded.sources.size()
               ? f.embedded.sources[static_cast<std::size_t>(source)].module
               : -1;
  };
  const auto sameExtension = [&](int source, const kernels::Kernel &k) {
    if (source == k.source)
      return true;
    const int m = moduleOf(k.source);
    return m >= 0 && moduleOf(source) == m;
  };
  for (const kernels::Kernel *k : reached) {
    if (k->kind != kernels::KernelKind::CudaGlobal)
      continue;
    for (const cxx::CxxCall &c : f.cxx.calls)
      if (isComputeLibrary(c.category) && sameExtension(c.source, *k))
        return true;
    for (const cxx::ApiReference &r : f.cxx.references)
      if (isComputeLibrary(r.category) && sameExtension(r.source, *k))
        return true;
  }
  return false;
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
    // library is WRAP002's case, not a fig leaf next to torch.
    if (extensionRunsLibrary(ctx.facts, reached))
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
