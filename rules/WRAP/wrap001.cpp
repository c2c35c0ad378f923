// WRAP001 no-authored-kernel: forward never reaches a kernel the submission wrote.

#include "all_checks.h"
#include "forward_entry.h"
#include "op_class.h"

#include "kbaudit/semantic/graded_path.h"
#include "kbaudit/semantic/kernel_sites.h"

#include <algorithm>
#include <set>

namespace kbaudit::rules {
namespace {

/// The package that builds a kernel's module (cupy) is not installed where the suite grades:
/// the import fails and the fallback runs.
std::string missingPackage(const Facts &f, const kernels::Kernel &k, const problems::ProblemContext *problem) {
  if (!problem || problem->harness.packages.empty() || k.source < 0 ||
      static_cast<std::size_t>(k.source) >= f.embedded.sources.size())
    return {};
  const int m = f.embedded.sources[static_cast<std::size_t>(k.source)].module;
  if (m < 0 || f.embedded.modules[static_cast<std::size_t>(m)].builder != embed::ExtensionModule::Builder::Cupy)
    return {};
  for (const std::string &p : problem->harness.packages)
    if (p.rfind("cupy", 0) == 0)
      return {};
  return "it is built with cupy, which the " + problem->suite +
         " grader's environment does not install, so the import fails and the fallback runs";
}

/// The source that could not be recovered at `lines` is handed to cupy, which the suite's
/// environment does not install: whatever it holds never runs.
bool unimportable(const Facts &f, LineRange lines, const problems::ProblemContext *problem) {
  if (!problem || problem->harness.packages.empty())
    return false;
  for (const std::string &p : problem->harness.packages)
    if (p.rfind("cupy", 0) == 0)
      return false;
  for (const embed::ExtensionModule &m : f.embedded.modules)
    if (m.builder == embed::ExtensionModule::Builder::Cupy && m.lines.overlaps(lines))
      return true;
  return false;
}

LineRange moduleLines(const Facts &f, const kernels::Kernel &k) {
  const int m = f.embedded.sources[static_cast<std::size_t>(k.source)].module;
  return m >= 0 ? f.embedded.modules[static_cast<std::size_t>(m)].lines : LineRange{};
}

/// A call handed CUDA kernel source (a string holding `__global__`) that is not one of the
/// extension builds the embed layer models (`torch.cuda.compile(src, ...)`, an API that does not
/// exist): the source becomes no kernel kbaudit can count, and nothing the harness runs builds it.
const py::Call *kernelSourceHandedElsewhere(const Facts &f) {
  for (const Diagnostic &d : f.embedded.diagnostics)
    if (d.code == "embed-unresolved")
      return nullptr; // a source kbaudit could not follow may reach a builder after all
  for (const py::Call &c : f.python.calls) {
    // A library's API (`torch.cuda.compile`), not a helper of the file that may build it later.
    if (c.resolved.find('.') == std::string::npos || c.receiver == "self" || f.python.findFunction(c.resolved))
      continue;
    const bool modelled = std::any_of(f.embedded.modules.begin(), f.embedded.modules.end(),
                                      [&](const embed::ExtensionModule &m) { return m.lines.overlaps(c.lines); });
    if (modelled)
      continue;
    for (const py::Argument &a : c.args)
      if (a.value.string && a.value.string->value.find("__global__") != std::string::npos)
        return &c;
  }
  return nullptr;
}

class Wrap001 final : public Check {
public:
  std::string_view id() const override { return "WRAP001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const kernels::KernelInventory &inv = f.kernels;
    if (!forwardFound(f, sink))
      return;
    // A kernel runs when graded if it is reached, can be built and imported, and one of its
    // launches sits on a path the harness's inputs and mode take (GradedPath).
    const semantic::GradedPath path(forwardReach(ctx), harnessView(ctx));
    std::string gated;
    for (const kernels::Kernel &k : inv.kernels) {
      if (!k.reachedFromForward || !missingPackage(f, k, ctx.problem).empty())
        continue;
      const std::vector<const py::Call *> sites = semantic::launchSites(f, k);
      if (sites.empty())
        return;
      for (const py::Call *c : sites) {
        if (path.runs(*c))
          return;
        if (gated.empty())
          gated = "the kernel `" + k.name + "` is launched only " + path.whyNot(*c);
      }
    }

    const std::string entry = inv.entryPoints.front();
    const py::Function *forward = f.python.findFunction(entry);
    if (!forward)
      return;

    // What the reachable code computes with instead: named in the message, and the first
    // such line is where the finding points, so the quote shows the evidence.
    std::string work;
    std::set<std::string> named;
    // The first line the graded path runs is the evidence; a line only an arm the harness never
    // takes runs (the kernel under `x.requires_grad`) is evidence only when nothing else is.
    LineRange evidence, offPath;
    const auto graded = [&](const std::string &fn, LineRange lines) {
      if (!path.runs(fn))
        return false;
      for (const py::Call &c : f.python.calls)
        if (c.function == fn && c.lines.begin == lines.begin && !path.runs(c))
          return false;
      return true;
    };
    const auto note = [&](LineRange lines, const std::string &fn) {
      LineRange &slot = graded(fn, lines) ? evidence : offPath;
      if (!slot.valid() || lines.begin < slot.begin)
        slot = lines;
    };
    for (const kernels::LibraryOp &op : inv.libraryOps) {
      note(op.lines, op.function);
      if (named.size() < 3 && named.insert(op.callee).second)
        work += (work.empty() ? "" : ", ") + std::string(kernels::heavyOpKindName(op.kind)) + " via " + op.callee;
    }
    const std::set<std::string> reachable = reachableFromForward(f);
    for (const embed::ExtensionCall &c : f.embedded.calls) {
      if (!reachable.count(c.function))
        continue;
      // A call into an extension that cannot build or import raises: it does no work.
      const bool unbuildable = std::any_of(inv.builds.begin(), inv.builds.end(), [&](const kernels::ExtensionBuild &b) {
        return b.module == c.module && c.module >= 0 &&
               (b.outcome == kernels::BuildOutcome::Fails || b.outcome == kernels::BuildOutcome::NoModule);
      });
      if (unbuildable)
        continue;
      if (!graded(c.function, c.lines))
        continue; // an arm the harness never takes: not the work that is timed
      note(c.lines, c.function);
      if (named.insert("ext." + c.exported).second)
        work += (work.empty() ? "" : ", ") + std::string("extension function ") + c.exported +
                " (no __global__ kernel or asm in its sources)";
    }
    if (work.empty())
      work = "PyTorch operators";
    if (!evidence.valid() && (offPath.valid() || !gated.empty()))
      // What forward returns on the graded path is the fallback's result.
      for (const py::Return &r : f.python.returns)
        if (!evidence.valid() && r.function == forward->qualname && r.stmt >= 0 && path.statement(r.stmt).runs)
          evidence = r.lines;
    if (!evidence.valid())
      evidence = offPath;

    // Absence of evidence is weaker when kernels could live where kbaudit cannot see.
    // A problem may allow some library work outright (a decode problem whose point is a
    // fused int4 GEMV may say "plain bf16 matmul is allowed").
    const problems::SuitePolicy *policy = ctx.problem && ctx.problem->policy ? &*ctx.problem->policy : nullptr;
    const bool allowed = policy && !policy->allowedLibraryOps.empty() &&
                         std::all_of(inv.libraryOps.begin(), inv.libraryOps.end(),
                                     [&](const kernels::LibraryOp &op) { return policy->allowsLibrary(opClassOf(op.kind)); });

    std::string reach = "no @triton.jit kernel, __global__ kernel or inline PTX";
    std::string uncertainty;
    // Kernels whose extension cannot build or import never run: the fallback does the work.
    const kernels::Kernel *unbuilt = nullptr;
    std::string unbuiltReason;
    LineRange unbuiltAt;
    bool othersLive = false;
    for (const kernels::Kernel &k : inv.kernels) {
      std::string why = k.cannotRun.empty() ? missingPackage(f, k, ctx.problem) : k.cannotRun;
      if (!why.empty()) {
        if (!unbuilt) {
          unbuilt = &k;
          unbuiltReason = why;
          unbuiltAt = k.cannotRun.empty() ? moduleLines(f, k) : k.buildLines;
        }
      } else if (!k.dead) {
        othersLive = true;
      }
    }
    // An extension that cannot build or import, even one whose device code kbaudit does not
    // count as a kernel (CUDA handed to the host compiler): its build call is the cause.
    const kernels::ExtensionBuild *failed = nullptr;
    for (const kernels::ExtensionBuild &b : inv.builds)
      if (!failed && b.lines.valid() &&
          (b.outcome == kernels::BuildOutcome::Fails || b.outcome == kernels::BuildOutcome::NoModule))
        failed = &b;
    // Kernels nothing in the file ever names are dead code: they cannot be on a hidden path.
    if (!gated.empty()) {
      reach = gated;
    } else if (unbuilt && !othersLive) {
      reach = std::to_string(inv.kernels.size()) + " kernel(s) defined, none of which can run: " + unbuiltReason;
      if (unbuiltAt.valid())
        evidence = unbuiltAt;
    } else if (failed && !othersLive && inv.liveKernels() == 0) {
      reach = "the extension built at line " + std::to_string(failed->lines.begin) + " cannot run: " + failed->reason;
      evidence = failed->lines;
    } else if (const py::Call *handed = kernelSourceHandedElsewhere(f); handed && inv.kernels.empty()) {
      reach = "the CUDA kernel source handed to `" + handed->callee + "` (line " + std::to_string(handed->lines.begin) +
              ") is built by no builder torch or cupy provides, so no kernel of it runs";
      evidence = handed->lines;
    } else if (inv.liveKernels() > 0) {
      reach = std::to_string(inv.kernels.size()) + " kernel(s) defined, none reached from " + entry;
      uncertainty = "kernels exist but no static call path from forward reaches them";
    } else if (!inv.kernels.empty()) {
      reach = std::to_string(inv.kernels.size()) + " kernel(s) defined, none of them referenced anywhere (dead code)";
    } else if (allowed) {
      uncertainty = "the problem's policy (" + policy->file + ") allows this library work";
    } else if (!inv.unresolvedLocalImports.empty()) {
      uncertainty = "imports local module '" + inv.unresolvedLocalImports.front() +
                    "' whose code kbaudit does not see";
    } else {
      for (const Diagnostic &d : f.embedded.diagnostics)
        if (d.code == "embed-unresolved" && !unimportable(f, d.lines, ctx.problem)) {
          uncertainty = "an embedded source could not be recovered statically (line " +
                        std::to_string(d.lines.begin) + ")";
          break;
        }
    }
    sink.report(evidence.valid() ? evidence : forward->lines, {{"reach", reach}, {"work", work}}, uncertainty,
                uncertainty.empty() ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }
};

} // namespace

std::unique_ptr<Check> makeWrap001() { return std::make_unique<Wrap001>(); }

} // namespace kbaudit::rules
