#include "work_summary.h"

#include <map>
#include <string_view>

namespace kbaudit::kernels {

const char *kernelWorkName(KernelWork w) {
  switch (w) {
  case KernelWork::Matmul: return "matmul";
  case KernelWork::Reduction: return "reduction";
  case KernelWork::Scan: return "scan";
  case KernelWork::Sort: return "sort";
  case KernelWork::Elementwise: return "elementwise";
  case KernelWork::Copy: return "copy";
  case KernelWork::Unknown: return "unknown";
  }
  return "unknown";
}

const char *heavyOpKindName(HeavyOpKind k) {
  switch (k) {
  case HeavyOpKind::Matmul: return "matmul";
  case HeavyOpKind::Conv: return "conv";
  case HeavyOpKind::Attention: return "attention";
  case HeavyOpKind::Scan: return "scan";
  case HeavyOpKind::Sort: return "sort";
  }
  return "matmul";
}

namespace {

// Last name segment -> kind; applies to `torch.*` functions and to tensor methods alike.
const std::map<std::string_view, HeavyOpKind> &heavyNames() {
  static const std::map<std::string_view, HeavyOpKind> names = {
      {"matmul", HeavyOpKind::Matmul},   {"mm", HeavyOpKind::Matmul},
      {"bmm", HeavyOpKind::Matmul},      {"addmm", HeavyOpKind::Matmul},
      {"addbmm", HeavyOpKind::Matmul},   {"baddbmm", HeavyOpKind::Matmul},
      {"einsum", HeavyOpKind::Matmul},   {"linear", HeavyOpKind::Matmul},
      {"tensordot", HeavyOpKind::Matmul},{"multi_dot", HeavyOpKind::Matmul},
      {"_scaled_mm", HeavyOpKind::Matmul},{"bilinear", HeavyOpKind::Matmul},
      {"addmv", HeavyOpKind::Matmul},    {"mv", HeavyOpKind::Matmul},
      {"conv1d", HeavyOpKind::Conv},     {"conv2d", HeavyOpKind::Conv},
      {"conv3d", HeavyOpKind::Conv},     {"conv_transpose1d", HeavyOpKind::Conv},
      {"conv_transpose2d", HeavyOpKind::Conv}, {"conv_transpose3d", HeavyOpKind::Conv},
      {"convolution", HeavyOpKind::Conv},
      {"scaled_dot_product_attention", HeavyOpKind::Attention},
      {"multi_head_attention_forward", HeavyOpKind::Attention},
      {"cumsum", HeavyOpKind::Scan},     {"cumprod", HeavyOpKind::Scan},
      {"logcumsumexp", HeavyOpKind::Scan}, {"cummax", HeavyOpKind::Scan},
      {"cummin", HeavyOpKind::Scan},
      {"sort", HeavyOpKind::Sort},       {"topk", HeavyOpKind::Sort},
      {"argsort", HeavyOpKind::Sort},    {"kthvalue", HeavyOpKind::Sort},
  };
  return names;
}

std::string_view lastSegment(std::string_view s) {
  const auto dot = s.rfind('.');
  return dot == std::string_view::npos ? s : s.substr(dot + 1);
}

} // namespace

KernelWork workOfTriton(triton::WorkKind k) {
  switch (k) {
  case triton::WorkKind::Matmul: return KernelWork::Matmul;
  case triton::WorkKind::Reduction:
  case triton::WorkKind::LoopReduction:
  case triton::WorkKind::Atomic: return KernelWork::Reduction;
  case triton::WorkKind::Scan: return KernelWork::Scan;
  case triton::WorkKind::Sort: return KernelWork::Sort;
  case triton::WorkKind::Elementwise: return KernelWork::Elementwise;
  case triton::WorkKind::Copy:
  case triton::WorkKind::Empty: return KernelWork::Copy;
  }
  return KernelWork::Unknown;
}


std::optional<HeavyOpKind> classifyLibraryCall(const py::Call &c) {
  const std::string &r = c.resolved;
  const bool torchFunction = r.rfind("torch.", 0) == 0;
  // A tensor method: a receiver that did not resolve to a module (`x.matmul(w)`).
  const bool tensorMethod = !c.receiver.empty() && !torchFunction && r.find("triton") == std::string::npos &&
                            r.rfind("numpy.", 0) != 0 && r.rfind("math.", 0) != 0;
  if (!torchFunction && !tensorMethod)
    return std::nullopt;
  const auto it = heavyNames().find(lastSegment(torchFunction ? std::string_view(r) : std::string_view(c.method)));
  if (it == heavyNames().end())
    return std::nullopt;
  return it->second;
}

std::optional<HeavyOpKind> classifyModuleClass(std::string_view cls) {
  static const std::map<std::string_view, HeavyOpKind> modules = {
      {"torch.nn.Linear", HeavyOpKind::Matmul},     {"torch.nn.Bilinear", HeavyOpKind::Matmul},
      {"torch.nn.Conv1d", HeavyOpKind::Conv},       {"torch.nn.Conv2d", HeavyOpKind::Conv},
      {"torch.nn.Conv3d", HeavyOpKind::Conv},       {"torch.nn.ConvTranspose1d", HeavyOpKind::Conv},
      {"torch.nn.ConvTranspose2d", HeavyOpKind::Conv}, {"torch.nn.ConvTranspose3d", HeavyOpKind::Conv},
      {"torch.nn.MultiheadAttention", HeavyOpKind::Attention},
  };
  const auto it = modules.find(cls);
  return it == modules.end() ? std::nullopt : std::optional<HeavyOpKind>(it->second);
}

void summarizeWork(const py::PythonFacts &python, const std::set<std::string> &reachable, KernelInventory &inv) {
  // nn modules stored on self (`self.proj = nn.Linear(...)`), keyed "Class.attr".
  std::map<std::string, HeavyOpKind> moduleAttrs;
  for (const py::Assignment &a : python.assignments) {
    if (a.kind != py::Assignment::TargetKind::SelfAttribute || a.value.kind != py::ExprKind::Call)
      continue;
    if (auto kind = classifyModuleClass(a.value.resolved)) {
      const std::string cls = a.function.substr(0, a.function.find('.'));
      moduleAttrs[cls + "." + std::string(lastSegment(a.target))] = *kind;
    }
  }
  for (const py::Call &c : python.calls) {
    if (!reachable.count(c.function))
      continue;
    std::optional<HeavyOpKind> kind = classifyLibraryCall(c);
    std::string callee = c.resolved;
    if (!kind && c.callee.rfind("self.", 0) == 0 && c.receiver == "self") {
      const std::string cls = c.function.substr(0, c.function.find('.'));
      if (auto it = moduleAttrs.find(cls + "." + c.method); it != moduleAttrs.end()) {
        kind = it->second;
        callee = c.callee;
      }
    }
    if (kind)
      inv.libraryOps.push_back(LibraryOp{*kind, callee, c.function, c.lines});
  }
  for (const py::OperatorUse &op : python.operators)
    if (op.op == "@" && reachable.count(op.function))
      inv.libraryOps.push_back(LibraryOp{HeavyOpKind::Matmul, "@", op.function, op.lines});
}

} // namespace kbaudit::kernels
