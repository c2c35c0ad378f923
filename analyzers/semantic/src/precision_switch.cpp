// PyTorch's precision switches (precision_switch.h).

#include "kbaudit/semantic/precision_switch.h"

#include "kbaudit/semantic/entry_points.h"
#include "kbaudit/semantic/local_helper.h"
#include "kbaudit/semantic/python_text.h"

#include <array>

namespace kbaudit::semantic {
namespace {

constexpr std::array<PrecisionFlag, 5> kBoolFlags = {{
    {"torch.backends.cuda.matmul.allow_tf32", "fp32 matmuls run on TF32 tensor cores", false, "fp32",
     kernels::HeavyOpKind::Matmul},
    {"torch.backends.cudnn.allow_tf32", "fp32 convolutions run on TF32 tensor cores", true, "fp32",
     kernels::HeavyOpKind::Conv},
    {"torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
     "fp16 GEMMs may reduce in reduced precision", true, "fp16", kernels::HeavyOpKind::Matmul},
    {"torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
     "bf16 GEMMs may reduce in reduced precision", true, "bf16", kernels::HeavyOpKind::Matmul},
    {"torch.backends.cuda.matmul.allow_fp16_accumulation", "fp16 GEMMs accumulate in fp16", false, "fp16",
     kernels::HeavyOpKind::Matmul},
}};

constexpr std::array<std::string_view, 5> kPrecisionStrings = {
    "torch.backends.fp32_precision", "torch.backends.cuda.matmul.fp32_precision",
    "torch.backends.cudnn.fp32_precision", "torch.backends.cudnn.conv.fp32_precision",
    "torch.backends.cudnn.rnn.fp32_precision"};

} // namespace

const PrecisionFlag *precisionFlag(std::string_view resolved) {
  for (const PrecisionFlag &flag : kBoolFlags)
    if (flag.target == resolved)
      return &flag;
  return nullptr;
}

bool isPrecisionString(std::string_view resolved) {
  for (std::string_view target : kPrecisionStrings)
    if (target == resolved)
      return true;
  return false;
}

std::optional<std::string> cxxPrecisionLowering(const cxx::CxxCall &c) {
  const std::string_view callee = c.callee;
  const auto method = callee.substr(callee.rfind(':') == std::string_view::npos ? 0 : callee.rfind(':') + 1);
  const std::string arg = c.arguments.empty() ? "" : c.arguments.back();
  if (method == "setAllowTF32CuBLAS" || method == "setAllowTF32CuDNN" || method == "setAllowFP16ReductionCuBLAS" ||
      method == "setAllowBF16ReductionCuBLAS") {
    if (arg == "false" || arg == "0")
      return std::nullopt;
    return method == "setAllowTF32CuDNN"    ? "fp32 convolutions run on TF32 tensor cores"
           : method == "setAllowTF32CuBLAS" ? "fp32 matmuls run on TF32 tensor cores"
                                            : "half-precision GEMMs may reduce in reduced precision";
  }
  if (method == "setFloat32MatmulPrecision") {
    if (arg.find("highest") != std::string::npos || arg.find("HIGHEST") != std::string::npos)
      return std::nullopt;
    return "fp32 matmuls may run as TF32 or bf16";
  }
  if (method == "cublasSetMathMode") {
    if (arg.find("TF32") == std::string::npos && arg.find("TENSOR_OP") == std::string::npos)
      return std::nullopt;
    return "cuBLAS fp32 GEMMs run on TF32 tensor cores";
  }
  return std::nullopt;
}

bool isLowDtypeSpelling(std::string_view spelled) {
  for (std::string_view low : {"float16", "half", "bfloat16", "float8", "HalfTensor", "BFloat16Tensor"})
    if (spelled.find(low) != std::string_view::npos)
      return true;
  return false;
}

std::set<std::string> functionsInForceAtEntry(const Facts &facts) {
  std::set<std::string> in = reachableFromEntry(facts);
  std::set<std::string> before = {""};
  for (const py::Function &f : facts.python.functions)
    if (pytext::lastSegment(f.qualname) == "__init__")
      before.insert(f.qualname);
  for (bool grew = true; grew;) {
    grew = false;
    for (const py::Call &c : facts.python.calls)
      if (before.count(c.function))
        if (const py::Function *h = helperCalled(facts.python, c, c.function))
          grew |= before.insert(h->qualname).second;
  }
  in.insert(before.begin(), before.end());
  return in;
}

} // namespace kbaudit::semantic
