// What a reference computes, from the Python front end's facts for reference.py or a
// KernelBench level file: its entry point, dominant operation classes and dtypes.

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/python/frontend.h"

#include <algorithm>
#include <set>

namespace kbaudit::problems {

namespace {

// GPU MODE's reference.py convention: the reference computation, its input generator and its
// checker.
constexpr std::string_view kGpuModeEntry = "ref_kernel";
constexpr std::string_view kGpuModeInputs = "generate_input";
constexpr std::string_view kGpuModeChecker = "check_implementation";

std::string_view lastSegment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

template <std::size_t N> bool oneOf(std::string_view s, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

/// The operation class of a torch call or nn module, by its last name segment.
std::optional<OpClass> classify(std::string_view callee) {
  static const std::string_view matmul[] = {"matmul", "mm", "bmm", "linear", "addmm", "baddbmm", "addbmm",
                                            "einsum", "Linear", "Bilinear", "_scaled_mm", "_grouped_mm"};
  static const std::string_view conv[] = {"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                                          "conv_transpose3d", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
                                          "ConvTranspose2d", "ConvTranspose3d"};
  static const std::string_view attention[] = {"scaled_dot_product_attention", "MultiheadAttention",
                                               "multi_head_attention_forward"};
  static const std::string_view scan[] = {"cumsum", "cumprod", "cummax", "cummin", "logcumsumexp"};
  static const std::string_view reduction[] = {"sum", "mean", "amax", "amin", "max", "min", "norm", "softmax",
                                               "log_softmax", "layer_norm", "group_norm", "rms_norm", "var",
                                               "std", "logsumexp", "argmax", "argmin", "prod", "Softmax",
                                               "LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d",
                                               "batch_norm", "cross_entropy", "nll_loss"};
  static const std::string_view sort[] = {"sort", "topk", "argsort", "kthvalue", "msort"};
  const std::string_view name = lastSegment(callee);
  if (oneOf(name, matmul))
    return OpClass::Matmul;
  if (oneOf(name, conv))
    return OpClass::Conv;
  if (oneOf(name, attention))
    return OpClass::Attention;
  if (oneOf(name, scan))
    return OpClass::Scan;
  if (oneOf(name, reduction))
    return OpClass::Reduction;
  if (oneOf(name, sort))
    return OpClass::Sort;
  return std::nullopt;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// The dtype a call creates or converts to: `dtype=` keywords, `.to(torch.X)`, `.half()`.
std::string dtypeOfCall(const py::Call &c) {
  if (const py::Argument *a = c.keywordArg("dtype"))
    return canonicalDtype(a->value.resolved.empty() ? a->value.text : a->value.resolved);
  if (c.method == "to" || c.method == "type")
    for (const py::Argument &a : c.args)
      if (a.keyword.empty() && (a.value.kind == py::ExprKind::Attribute || a.value.kind == py::ExprKind::Name)) {
        const std::string d = canonicalDtype(a.value.resolved.empty() ? a.value.text : a.value.resolved);
        if (!d.empty() && startsWith(a.value.resolved, "torch."))
          return d;
      }
  static const std::string_view methods[] = {"half", "bfloat16", "float", "double"};
  if (!c.receiver.empty() && oneOf(c.method, methods) && c.args.empty())
    return canonicalDtype(c.method);
  return {};
}

/// The looser of the `rtol=`/`atol=` numbers GPU MODE's checker is built with: the keywords of
/// calls inside `def check_implementation(...)`, or of the call bound to that name
/// (`check_implementation = make_match_reference(ref_kernel, rtol=2e-2, atol=1e-3)`).
std::optional<double> statedTolerance(const py::PythonFacts &f) {
  std::vector<LineRange> bound;
  for (const py::Assignment &a : f.assignments)
    if (a.kind == py::Assignment::TargetKind::Name && a.target == kGpuModeChecker && a.function.empty())
      bound.push_back(a.lines);
  const auto inChecker = [&](const py::Call &c) {
    if (c.function == kGpuModeChecker)
      return true;
    return c.function.empty() && std::any_of(bound.begin(), bound.end(), [&](const LineRange &r) {
             return r.begin <= c.lines.begin && c.lines.end <= r.end;
           });
  };
  std::optional<double> loosest;
  for (const py::Call &c : f.calls) {
    if (!inChecker(c))
      continue;
    for (const char *kw : {"rtol", "atol"})
      if (const py::Argument *a = c.keywordArg(kw); a && a->value.number && *a->value.number > 0)
        loosest = std::max(loosest.value_or(0.0), *a->value.number);
  }
  return loosest;
}

} // namespace

const char *opClassName(OpClass c) {
  switch (c) {
  case OpClass::Matmul: return "matmul";
  case OpClass::Conv: return "conv";
  case OpClass::Attention: return "attention";
  case OpClass::Scan: return "scan";
  case OpClass::Reduction: return "reduction";
  case OpClass::Sort: return "sort";
  case OpClass::Elementwise: return "elementwise";
  }
  return "unknown";
}

bool ReferenceSummary::dominatedBy(OpClass c) const {
  return std::find(dominantOps.begin(), dominantOps.end(), c) != dominantOps.end();
}

ReferenceSummary summarizeReference(std::string_view source, const std::filesystem::path &path) {
  ReferenceSummary ref;
  ref.found = true;
  ref.path = path;
  ref.source = std::string(source);
  ref.facts = py::analyze(source);
  const py::PythonFacts &f = ref.facts;

  for (const py::Class &c : f.classes)
    if (c.name == "Model") {
      ref.modelClass = c.name;
      break;
    }
  if (ref.modelClass.empty())
    for (const py::Class &c : f.classes)
      if (std::any_of(c.bases.begin(), c.bases.end(), [](const std::string &b) { return lastSegment(b) == "Module"; })) {
        ref.modelClass = c.name;
        break;
      }
  for (const char *method : {"forward", "step", "__call__"})
    if (const py::Function *fn = f.findFunction(ref.modelClass + "." + method)) {
      ref.entry = fn->qualname;
      ref.entryLines = fn->lines;
      break;
    }
  // GPU MODE's reference-kernels and kernelbot: no model, a module-level `ref_kernel(data)`
  // whose inputs come from `generate_input(...)`.
  if (ref.entry.empty())
    if (const py::Function *fn = f.findFunction(kGpuModeEntry); fn && fn->className.empty()) {
      ref.entry = fn->qualname;
      ref.entryLines = fn->lines;
    }

  // Functions whose work counts: the model's methods other than __init__ (or the function-style
  // entry itself), and the module functions they call (one level is what references need:
  // helpers like `_chunk_scan`).
  std::set<std::string> counted;
  for (const py::Function &fn : f.functions)
    if (fn.className == ref.modelClass && !ref.modelClass.empty() && fn.name != "__init__")
      counted.insert(fn.qualname);
  if (ref.modelClass.empty() && !ref.entry.empty())
    counted.insert(ref.entry);
  for (const py::Call &c : f.calls)
    if (counted.count(c.function) && f.findFunction(c.callee) && !f.findFunction(c.callee)->className.size())
      counted.insert(c.callee);

  // nn modules the model builds in __init__ (self.fc = nn.Linear(...)) count where used.
  std::set<OpClass> ops;
  for (const py::Assignment &a : f.assignments)
    if (a.kind == py::Assignment::TargetKind::SelfAttribute && a.value.kind == py::ExprKind::Call &&
        startsWith(a.value.resolved, "torch.nn."))
      if (auto cls = classify(a.value.resolved))
        ops.insert(*cls);
  for (const py::Call &c : f.calls) {
    if (!counted.count(c.function))
      continue;
    if (auto cls = classify(c.resolved.empty() ? c.callee : c.resolved))
      ops.insert(*cls);
    // In-place updates of the entry point's own inputs: `x.add_(...)`, `out.copy_(...)`.
    if (c.function == ref.entry && c.method.size() > 1 && c.method.back() == '_' && !startsWith(c.method, "__"))
      if (const py::Function *entry = f.findFunction(ref.entry))
        if (std::find(entry->params.begin(), entry->params.end(), c.receiver) != entry->params.end())
          ref.inPlace = true;
  }
  for (const py::OperatorUse &op : f.operators)
    if (counted.count(op.function) && op.op == "@")
      ops.insert(OpClass::Matmul);
  for (OpClass c : {OpClass::Matmul, OpClass::Conv, OpClass::Attention, OpClass::Scan, OpClass::Reduction,
                    OpClass::Sort})
    if (ops.count(c))
      ref.dominantOps.push_back(c);
  if (ref.dominantOps.empty() && !ref.entry.empty())
    ref.dominantOps.push_back(OpClass::Elementwise);

  for (const py::Call &c : f.calls) {
    const std::string d = dtypeOfCall(c);
    if (d.empty())
      continue;
    if (c.function == "get_inputs" || c.function == kGpuModeInputs)
      ref.inputDtypes.push_back({d, c.function, c.lines});
    else if (c.function == ref.modelClass + ".__init__")
      ref.weightDtypes.push_back({d, c.function, c.lines});
  }

  ref.statedTolerance = statedTolerance(f);

  const std::set<std::string> docScopes = {"", ref.modelClass, ref.entry};
  for (const py::StringConstant &s : f.strings)
    if (s.docstring && docScopes.count(s.function))
      ref.docstrings.push_back(s.value.value);
  return ref;
}

} // namespace kbaudit::problems
