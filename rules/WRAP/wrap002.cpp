// WRAP002 library-laundering: an extension function forward calls hands its heavy compute
// (GEMM, convolution, attention) to ATen, cuBLAS(Lt) or cuDNN instead of an authored kernel.

#include "all_checks.h"
#include "forward_entry.h"

#include "kbaudit/semantic/extension_sources.h"

#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kbaudit::rules {
namespace {

using problems::OpClass;

std::string_view afterLastScope(std::string_view name) {
  const auto colon = name.rfind("::");
  return colon == std::string_view::npos ? name : name.substr(colon + 2);
}

/// ATen ops (functions and Tensor methods alike, by their last segment) that run the
/// heavy compute in cuBLAS/cuDNN/flash kernels shipped with PyTorch.
std::optional<OpClass> atenHeavyClass(std::string_view callee) {
  static const std::map<std::string_view, OpClass> ops = {
      {"matmul", OpClass::Matmul},      {"mm", OpClass::Matmul},          {"bmm", OpClass::Matmul},
      {"addmm", OpClass::Matmul},       {"addmm_", OpClass::Matmul},      {"baddbmm", OpClass::Matmul},
      {"addbmm", OpClass::Matmul},      {"linear", OpClass::Matmul},      {"einsum", OpClass::Matmul},
      {"tensordot", OpClass::Matmul},   {"mv", OpClass::Matmul},          {"addmv", OpClass::Matmul},
      {"bilinear", OpClass::Matmul},    {"_scaled_mm", OpClass::Matmul},  {"_int_mm", OpClass::Matmul},
      {"_weight_int4pack_mm", OpClass::Matmul}, {"_weight_int8pack_mm", OpClass::Matmul},
      {"mm_out", OpClass::Matmul},      {"matmul_out", OpClass::Matmul},  {"bmm_out", OpClass::Matmul},
      {"addmm_out", OpClass::Matmul},
      {"conv1d", OpClass::Conv},        {"conv2d", OpClass::Conv},        {"conv3d", OpClass::Conv},
      {"conv_transpose1d", OpClass::Conv}, {"conv_transpose2d", OpClass::Conv},
      {"conv_transpose3d", OpClass::Conv}, {"convolution", OpClass::Conv}, {"_convolution", OpClass::Conv},
      {"cudnn_convolution", OpClass::Conv},
      {"scaled_dot_product_attention", OpClass::Attention},
      {"_scaled_dot_product_flash_attention", OpClass::Attention},
      {"_scaled_dot_product_efficient_attention", OpClass::Attention},
      {"_scaled_dot_product_cudnn_attention", OpClass::Attention},
      {"_flash_attention_forward", OpClass::Attention},
  };
  const auto it = ops.find(afterLastScope(callee));
  return it == ops.end() ? std::nullopt : std::optional<OpClass>(it->second);
}

bool containsAny(std::string_view s, std::initializer_list<std::string_view> parts) {
  for (std::string_view p : parts)
    if (s.find(p) != std::string_view::npos)
      return true;
  return false;
}

/// The call of a library category that performs the compute (not handle, descriptor or
/// heuristic setup around it).
std::optional<OpClass> heavyClass(const cxx::CxxCall &c) {
  const std::string_view name = afterLastScope(c.callee);
  switch (c.category) {
  case cxx::CallCategory::Aten:
    return atenHeavyClass(c.callee);
  case cxx::CallCategory::Cublas:
    // cublasSgemm, cublasGemmEx, cublasGemmStridedBatchedEx, cublasHgemmBatched, cublasSgemv...
    if (containsAny(name, {"gemm", "Gemm", "gemv", "Gemv", "Matmul"}))
      return OpClass::Matmul;
    return std::nullopt;
  case cxx::CallCategory::CublasLt:
    if (name == "cublasLtMatmul")
      return OpClass::Matmul;
    return std::nullopt;
  case cxx::CallCategory::Cudnn:
    if (name == "cudnnConvolutionForward" || name == "cudnnConvolutionBiasActivationForward")
      return OpClass::Conv;
    // The graph API runs whatever the plan says: attention, conv or matmul.
    if (name == "cudnnBackendExecute")
      return OpClass::Matmul;
    return std::nullopt;
  default:
    return std::nullopt; // CUTLASS/CuTe/CUB run templates the solution instantiates.
  }
}

const char *libraryName(cxx::CallCategory c) {
  switch (c) {
  case cxx::CallCategory::Cublas: return "cuBLAS";
  case cxx::CallCategory::CublasLt: return "cuBLASLt";
  case cxx::CallCategory::Cudnn: return "cuDNN";
  default: return "ATen";
  }
}

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
      const std::optional<OpClass> k = heavyClass(c);
      if (!k || policy.allows(*k))
        continue;
      if (!first || (c.lines.valid() && c.lines.begin < first->lines.begin)) {
        first = &c;
        cls = *k;
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
                 {"library", libraryName(first->category)},
                 {"call", first->spelled.empty() ? first->callee : first->spelled},
                 {"alongside", alongside}},
                evidence, evidence.empty() ? std::nullopt : std::optional<Confidence>(Confidence::Low));
  }
};

} // namespace

std::unique_ptr<Check> makeWrap002() { return std::make_unique<Wrap002>(); }

} // namespace kbaudit::rules
