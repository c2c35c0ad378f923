// WRAP002 library-laundering: an extension function forward calls hands its heavy compute
// (GEMM, convolution, attention) to ATen, cuBLAS(Lt) or cuDNN instead of an authored kernel.

#include "all_checks.h"
#include "forward_entry.h"
#include "op_class.h"

#include "kbaudit/semantic/extension_sources.h"
#include "kbaudit/semantic/library_compute.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kbaudit::rules {
namespace {

using problems::OpClass;

/// Authored kernels forward must reach before a library GEMM reads as one stage of a
/// pipeline: a fig leaf is a cast or an epilogue, one or two kernels.
constexpr std::size_t kPipelineKernels = 3;

class Wrap002 final : public Check {
public:
  std::string_view id() const override { return "WRAP002"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (f.cxx.exports.empty())
      return;
    const std::set<std::string> reachable = reachableFromForward(f);
    const SuitePolicyView policy{ctx.problem};

    std::set<std::pair<int, std::string>> done;
    for (const embed::ExtensionCall &call : f.embedded.calls) {
      if (call.module < 0 || !reachable.count(call.function) || !done.insert({call.module, call.exported}).second)
        continue;
      for (const cxx::ExportedFunction &e : f.cxx.exports)
        if (e.name == call.exported && semantic::extensionModule(f.embedded, e.source) == call.module)
          checkExport(f, e, call, policy, sink);
    }
  }

private:
  struct SuitePolicyView {
    const problems::ProblemContext *problem;
    bool allows(OpClass c) const { return problem && problem->policy && problem->policy->allowsLibrary(c); }
  };

  static void checkExport(const Facts &f, const cxx::ExportedFunction &e, const embed::ExtensionCall &call,
                          const SuitePolicyView &policy, FindingSink &sink) {
    const cxx::CxxCall *first = nullptr;
    OpClass cls = OpClass::Matmul;
    for (int i : e.libraryCalls) {
      if (i < 0 || static_cast<std::size_t>(i) >= f.cxx.calls.size())
        continue;
      const cxx::CxxCall &c = f.cxx.calls[static_cast<std::size_t>(i)];
      if (c.inDevice)
        continue;
      const std::optional<kernels::HeavyOpKind> work = semantic::libraryCompute(c);
      if (!work || policy.allows(opClassOf(*work)))
        continue;
      if (!first || (c.lines.valid() && c.lines.begin < first->lines.begin)) {
        first = &c;
        cls = opClassOf(*work);
      }
    }
    if (!first)
      return;

    // Several authored kernels reached from forward (routing, scans, scatters, gathers)
    // make the library call one stage of an authored pipeline rather than the whole
    // answer: a judgement for review, not a verdict.
    std::size_t pipeline = 0;
    for (const kernels::Kernel &k : f.kernels.kernels)
      if (k.reachedFromForward && k.kind != kernels::KernelKind::InlinePtx)
        ++pipeline;

    // An authored tensor-core kernel next to the library call means the library is
    // probably a fallback path (odd shapes, CPU tensors): worth a look, not a verdict.
    const std::set<std::string> launched(e.kernels.begin(), e.kernels.end());
    std::string names;
    std::size_t authored = 0;
    bool tensorCoreKernel = false;
    for (const kernels::Kernel &k : f.kernels.kernels) {
      if (k.kind != kernels::KernelKind::CudaGlobal || !launched.count(k.name))
        continue;
      if (++authored <= 3)
        names += (names.empty() ? "" : ", ") + k.name;
      if (k.work == kernels::KernelWork::Matmul)
        tensorCoreKernel = true;
    }
    if (authored > 3)
      names += ", ...";

    std::string alongside = "it launches no authored kernel";
    if (authored > 0)
      alongside = std::string(tensorCoreKernel ? "authored tensor-core kernel(s) next to it: "
                                                : "authored kernel(s) only around it: ") +
                  names;
    std::string evidence;
    if (tensorCoreKernel)
      evidence = "the export also launches an authored tensor-core kernel; the library call may be a fallback";
    else if (pipeline >= kPipelineKernels)
      evidence = "forward reaches " + std::to_string(pipeline) +
                 " authored kernels; the library call may be one stage of an authored pipeline";
    // A sidecar source numbers another file: the Python call into the extension stands in.
    sink.report(semantic::linesInSolution(f.embedded, first->source, first->lines).value_or(call.lines),
                {{"export", e.name},
                 {"op", problems::opClassName(cls)},
                 {"library", semantic::libraryName(first->category)},
                 {"call", first->spelled.empty() ? first->callee : first->spelled},
                 {"alongside", alongside}},
                evidence, evidence.empty() ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }
};

} // namespace

std::unique_ptr<Check> makeWrap002() { return std::make_unique<Wrap002>(); }

} // namespace kbaudit::rules
