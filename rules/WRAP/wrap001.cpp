// WRAP001 no-authored-kernel: forward never reaches a kernel the submission wrote.

#include "all_checks.h"
#include "forward_entry.h"
#include "op_class.h"

#include <algorithm>
#include <set>

namespace kbaudit::rules {
namespace {

class Wrap001 final : public Check {
public:
  std::string_view id() const override { return "WRAP001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const kernels::KernelInventory &inv = f.kernels;
    if (!forwardFound(f, sink))
      return;
    if (inv.anyReached())
      return;

    const std::string entry = inv.entryPoints.front();
    const py::Function *forward = f.python.findFunction(entry);
    if (!forward)
      return;

    // What the reachable code computes with instead: named in the message, and the first
    // such line is where the finding points, so the quote shows the evidence.
    std::string work;
    std::set<std::string> named;
    LineRange evidence;
    const auto note = [&](LineRange lines) {
      if (!evidence.valid() || lines.begin < evidence.begin)
        evidence = lines;
    };
    for (const kernels::LibraryOp &op : inv.libraryOps) {
      note(op.lines);
      if (named.size() < 3 && named.insert(op.callee).second)
        work += (work.empty() ? "" : ", ") + std::string(kernels::heavyOpKindName(op.kind)) + " via " + op.callee;
    }
    const std::set<std::string> reachable = reachableFromForward(f);
    for (const embed::ExtensionCall &c : f.embedded.calls) {
      if (!reachable.count(c.function))
        continue;
      note(c.lines);
      if (named.insert("ext." + c.exported).second)
        work += (work.empty() ? "" : ", ") + std::string("extension function ") + c.exported +
                " (no __global__ kernel or asm in its sources)";
    }
    if (work.empty())
      work = "PyTorch operators";

    // Absence of evidence is weaker when kernels could live where kbaudit cannot see.
    // A problem may allow some library work outright (a decode problem whose point is a
    // fused int4 GEMV may say "plain bf16 matmul is allowed").
    const problems::SuitePolicy *policy = ctx.problem && ctx.problem->policy ? &*ctx.problem->policy : nullptr;
    const bool allowed = policy && !policy->allowedLibraryOps.empty() &&
                         std::all_of(inv.libraryOps.begin(), inv.libraryOps.end(),
                                     [&](const kernels::LibraryOp &op) { return policy->allowsLibrary(opClassOf(op.kind)); });

    std::string reach = "no @triton.jit kernel, __global__ kernel or inline PTX";
    std::string uncertainty;
    // Kernels nothing in the file ever names are dead code: they cannot be on a hidden path.
    if (inv.liveKernels() > 0) {
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
        if (d.code == "embed-unresolved") {
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
