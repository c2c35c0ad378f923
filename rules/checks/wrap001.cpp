// WRAP001 no-authored-kernel: forward never reaches a kernel the submission wrote.

#include "all_checks.h"

#include <set>
#include <string_view>

namespace kbaudit::rules {
namespace {

bool isLibraryCompute(const py::Call &c) {
  const std::string &r = c.resolved;
  if (r.rfind("torch.", 0) == 0)
    return r.find(".cuda.") == std::string::npos && r.find("empty") == std::string::npos &&
           r.find("zeros") == std::string::npos && r.rfind("torch.utils", 0) != 0;
  static const std::set<std::string_view> kTensorMethods = {
      "matmul", "mm", "bmm", "addmm", "einsum", "conv1d", "conv2d", "conv3d", "linear",
      "softmax", "baddbmm", "scaled_dot_product_attention", "topk", "sort", "cumsum"};
  return !c.receiver.empty() && kTensorMethods.count(c.method);
}

class Wrap001 final : public Check {
public:
  std::string_view id() const override { return "WRAP001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const kernels::KernelInventory &inv = f.kernels;
    if (inv.entryPoints.empty()) {
      sink.skipped("no forward method found");
      return;
    }
    if (inv.anyReached())
      return;

    const std::string entry = inv.entryPoints.front();
    const py::Function *forward = f.python.findFunction(entry);
    if (!forward)
      return;

    // What the reachable code computes with instead, for the message.
    const std::set<std::string> reachable(inv.reachableFunctions.begin(), inv.reachableFunctions.end());
    std::string work;
    std::set<std::string> named;
    for (const py::Call &c : f.python.calls) {
      if (!reachable.count(c.function) || !isLibraryCompute(c) || named.size() >= 3)
        continue;
      const std::string name = c.resolved.rfind("torch.", 0) == 0 ? c.resolved : "Tensor." + c.method;
      if (named.insert(name).second)
        work += (work.empty() ? "" : ", ") + name;
    }
    for (const embed::ExtensionCall &c : f.embedded.calls)
      if (reachable.count(c.function) && named.insert("ext." + c.exported).second)
        work += (work.empty() ? "" : ", ") + std::string("extension function ") + c.exported +
                " (no __global__ kernel or asm in its sources)";
    if (work.empty())
      work = "PyTorch operators";

    // Absence of evidence is weaker when kernels could live where kbaudit cannot see.
    std::string reach = "no @triton.jit kernel, __global__ kernel or inline PTX";
    std::string uncertainty;
    if (!inv.kernels.empty()) {
      reach = std::to_string(inv.kernels.size()) + " kernel(s) defined, none reached from " + entry;
      uncertainty = "kernels exist but no static call path from forward reaches them";
    } else if (!inv.unresolvedLocalImports.empty()) {
      uncertainty = "imports local module '" + inv.unresolvedLocalImports.front() +
                    "' that is not in the run directory";
    } else {
      for (const Diagnostic &d : f.embedded.diagnostics)
        if (d.code == "embed-unresolved") {
          uncertainty = "an embedded source could not be recovered statically (line " +
                        std::to_string(d.lines.begin) + ")";
          break;
        }
    }
    sink.report(forward->lines, {{"reach", reach}, {"work", work}}, uncertainty,
                uncertainty.empty() ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }
};

} // namespace

std::unique_ptr<Check> makeWrap001() { return std::make_unique<Wrap001>(); }

} // namespace kbaudit::rules
