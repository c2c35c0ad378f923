// Whether code combines values across elements (kbaudit/semantic/cross_element.h): a fixed
// vocabulary of torch names, the kernel inventory's work summary for authored kernels, and
// the C++ library calls of the extensions forward calls.

#include "kbaudit/semantic/cross_element.h"
#include "kbaudit/semantic/cast_use.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace kbaudit::semantic::cross {

namespace {

std::string_view lastSegment(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

std::string_view stripColons(std::string_view qualified) {
  const auto colon = qualified.rfind("::");
  return colon == std::string_view::npos ? qualified : qualified.substr(colon + 2);
}

template <std::size_t N> bool oneOf(std::string_view s, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

// Reductions over elements: the statistics a normalization needs, and the ops that compute
// them whole (softmax, the norm layers), plus scans and accumulating scatters.
constexpr std::string_view kStatistic[] = {
    "sum", "nansum", "mean", "nanmean", "var", "std", "var_mean", "std_mean", "norm", "vector_norm",
    "matrix_norm", "frobenius_norm", "nuclear_norm", "amax", "amin", "aminmax", "max", "min", "argmax",
    "argmin", "logsumexp", "prod", "median", "nanmedian", "mode", "quantile", "nanquantile", "softmax",
    "log_softmax", "softmin", "_softmax", "_log_softmax", "layer_norm", "native_layer_norm", "rms_norm",
    "group_norm", "native_group_norm", "batch_norm", "native_batch_norm", "instance_norm",
    "local_response_norm", "normalize", "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "kl_div",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss", "huber_loss",
    "cosine_similarity", "pairwise_distance", "count_nonzero", "all", "any", "histc", "bincount", "cumsum",
    "cumprod", "cummax", "cummin", "logcumsumexp", "scatter_add", "scatter_add_", "scatter_reduce",
    "scatter_reduce_", "index_add", "index_add_", "segment_reduce", "dist", "trace", "renorm"};

// Ops that combine elements by contraction, windows or ordering.
constexpr std::string_view kContraction[] = {
    "matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "einsum", "linear", "bilinear", "tensordot",
    "multi_dot", "_scaled_mm", "addmv", "mv", "dot", "vdot", "inner", "cdist", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "convolution", "scaled_dot_product_attention",
    "multi_head_attention_forward", "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d",
    "max_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool2d", "adaptive_max_pool3d", "lp_pool1d", "lp_pool2d", "interpolate", "upsample",
    "embedding_bag", "sort", "topk", "argsort", "kthvalue", "msort", "unique"};

// Element-wise math, allocation, views and copies, dtype and device moves, metadata.
constexpr std::string_view kNone[] = {
    // allocation and construction
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
    "new_empty", "new_zeros", "new_ones", "new_full", "new_tensor", "tensor", "as_tensor", "from_numpy",
    "arange", "rand", "randn", "randint", "rand_like", "randn_like", "Parameter",
    // views, copies, layout
    "view", "view_as", "reshape", "reshape_as", "flatten", "unflatten", "permute", "transpose", "t",
    "contiguous", "unsqueeze", "squeeze", "expand", "expand_as", "repeat", "repeat_interleave", "narrow",
    "select", "split", "chunk", "unbind", "tensor_split", "cat", "concat", "stack", "hstack", "vstack", "flip",
    "roll", "movedim", "moveaxis", "swapaxes", "as_strided", "clone", "detach", "detach_", "copy_", "fill_",
    "zero_", "index_select", "gather", "take", "take_along_dim", "masked_select", "scatter", "scatter_",
    "index_put_", "index_copy_", "pad", "embedding", "one_hot", "triu", "tril", "outer",
    // dtype, device, metadata
    "to", "cuda", "cpu", "float", "half", "bfloat16", "double", "int", "long", "short", "bool", "byte",
    "type", "type_as", "size", "dim", "ndimension", "numel", "nelement", "stride", "storage_offset",
    "data_ptr", "element_size", "is_contiguous", "get_device", "requires_grad_", "item", "tolist",
    "pin_memory", "record_stream", "untyped_storage", "is_floating_point", "is_complex",
    // element-wise math
    "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_", "true_divide", "floor_divide", "remainder",
    "fmod", "neg", "neg_", "abs", "abs_", "sqrt", "sqrt_", "rsqrt", "rsqrt_", "exp", "exp_", "exp2", "expm1",
    "log", "log_", "log2", "log10", "log1p", "pow", "pow_", "square", "reciprocal", "reciprocal_", "sign",
    "sgn", "floor", "ceil", "round", "trunc", "frac", "sin", "cos", "tan", "sinh", "cosh", "asin", "acos",
    "atan", "atan2", "tanh", "tanh_", "sigmoid", "sigmoid_", "relu", "relu_", "relu6", "gelu", "silu", "elu",
    "selu", "celu", "leaky_relu", "softplus", "softsign", "mish", "hardtanh", "hardswish", "hardsigmoid",
    "logsigmoid", "tanhshrink", "threshold", "glu", "prelu", "clamp", "clamp_", "clamp_min", "clamp_max",
    "clip", "where", "maximum", "minimum", "fmax", "fmin", "masked_fill", "masked_fill_", "addcmul",
    "addcdiv", "lerp", "erf", "erfc", "erfinv", "isnan", "isinf", "isfinite", "nan_to_num", "logical_and",
    "logical_or", "logical_not", "logical_xor", "eq", "ne", "lt", "le", "gt", "ge", "hypot", "copysign",
    "xlogy", "float_power", "dropout", "alpha_dropout", "sigmoid_backward", "fused_dropout", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bitwise_not", "__getitem__", "__setitem__", "numpy"};

// Python builtins and host helpers that work on numbers, shapes or the runtime.
constexpr std::string_view kBuiltins[] = {
    "len", "range", "int", "float", "bool", "str", "tuple", "list", "dict", "set", "isinstance", "getattr",
    "setattr", "hasattr", "print", "super", "enumerate", "zip", "divmod", "abs", "round", "min", "max", "id",
    "type", "iter", "next", "map", "sorted", "reversed", "format", "repr", "hash", "callable"};

// Host modules whose calls never touch tensor contents.
constexpr std::string_view kHostPrefixes[] = {
    "math.", "triton.cdiv", "triton.next_power_of_2", "torch.cuda.", "torch.device", "torch.no_grad",
    "torch.inference_mode", "torch.is_tensor", "torch.finfo", "torch.iinfo", "torch.Size",
    "torch.utils.cpp_extension.", "warnings.", "logging."};

// nn module classes, by last segment.
constexpr std::string_view kStatisticModules[] = {
    "LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm",
    "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LocalResponseNorm", "Softmax", "LogSoftmax",
    "Softmin", "Softmax2d", "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "KLDivLoss", "CosineSimilarity",
    "PairwiseDistance", "AdaptiveLogSoftmaxWithLoss"};
constexpr std::string_view kContractionModules[] = {
    "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "MultiheadAttention", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d",
    "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "Upsample", "UpsamplingBilinear2d",
    "EmbeddingBag", "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
    "TransformerDecoderLayer", "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell", "Fold", "Unfold"};
constexpr std::string_view kNoneModules[] = {
    "ReLU", "ReLU6", "GELU", "SiLU", "Sigmoid", "Tanh", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
    "AlphaDropout", "Identity", "Flatten", "Unflatten", "Hardtanh", "LeakyReLU", "ELU", "SELU", "CELU",
    "Mish", "Softplus", "Hardswish", "Hardsigmoid", "PReLU", "Embedding", "PixelShuffle", "PixelUnshuffle",
    "ChannelShuffle", "Threshold"};

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

Kind ofKernelWork(kernels::KernelWork w) {
  switch (w) {
  case kernels::KernelWork::Elementwise:
  case kernels::KernelWork::Copy: return Kind::None;
  case kernels::KernelWork::Reduction:
  case kernels::KernelWork::Scan: return Kind::Statistic;
  case kernels::KernelWork::Matmul:
  case kernels::KernelWork::Sort: return Kind::Contraction;
  case kernels::KernelWork::Unknown: return Kind::Unknown;
  }
  return Kind::Unknown;
}

/// `self.attr = SomeModule(...)` in a method of class `cls` (the text before the qualname's
/// first dot): an nn module stored on self.
bool storesSelfModule(const py::Assignment &a) {
  return a.kind == py::Assignment::TargetKind::SelfAttribute && a.value.kind == py::ExprKind::Call;
}
std::string_view classOfMethod(const py::Assignment &a) {
  return std::string_view(a.function).substr(0, a.function.find('.'));
}

/// nn modules stored on self in a class's methods (`self.ln = nn.LayerNorm(d)`), keyed
/// "Class.attr", with the resolved class; own classes keep their name.
std::map<std::string, std::string> selfModules(const py::PythonFacts &py) {
  std::map<std::string, std::string> out;
  for (const py::Assignment &a : py.assignments)
    if (storesSelfModule(a))
      out[std::string(classOfMethod(a)) + "." + std::string(lastSegment(a.target))] = a.value.resolved;
  return out;
}

/// selfModules(py)'s value for "cls.attr" (the last such assignment's, as the map keeps), found
/// without building the map: ofCall classifies one call, and most calls never ask.
std::optional<std::string> selfModuleOf(const py::PythonFacts &py, std::string_view cls, std::string_view attr) {
  std::optional<std::string> out;
  for (const py::Assignment &a : py.assignments)
    if (storesSelfModule(a) && classOfMethod(a) == cls && lastSegment(a.target) == attr)
      out = a.value.resolved;
  return out;
}

std::string classOf(std::string_view qualname) {
  const auto dot = qualname.find('.');
  return dot == std::string_view::npos ? std::string() : std::string(qualname.substr(0, dot));
}

/// How one Python call bears on cross-element work. `own` is set when the callee is code of
/// the file itself (its body is judged where the walk reaches it).
struct CallKind {
  Kind kind = Kind::Unknown;
  bool own = false;
  std::string what;
  std::string op; ///< the torch op or nn module class it names, for batchStatistics
};

CallKind ownCode(std::string what) { return {Kind::None, true, std::move(what), {}}; }
CallKind named(Kind kind, std::string what, std::string op = {}) {
  return {kind, false, std::move(what), std::move(op)};
}

/// `modules` is selfModules(py), or null to look up the one entry a call needs.
CallKind classifyCall(const py::PythonFacts &py, const std::map<std::string, std::string> *modules,
                      const py::Call &c) {
  const std::string &r = c.resolved.empty() ? c.callee : c.resolved;
  const std::string cls = classOf(c.function);
  // The file's own functions, classes and methods.
  if (py.findFunction(r) || py.findClass(r) || py.findFunction(c.function + "." + c.callee))
    return ownCode(r);
  if (const auto dot = r.rfind('.'); dot != std::string::npos && py.findClass(r.substr(0, dot)))
    return ownCode(r); // Fn.apply, Class.static_helper
  if (startsWith(c.callee, "self.") && c.receiver == "self") {
    if (py.findFunction(cls + "." + c.method))
      return ownCode(c.callee);
    std::optional<std::string> module;
    if (!modules)
      module = selfModuleOf(py, cls, c.method);
    else if (auto it = modules->find(cls + "." + c.method); it != modules->end())
      module = it->second;
    if (module) {
      if (py.findClass(*module))
        return ownCode(c.callee);
      if (startsWith(*module, "torch.nn."))
        return named(ofModuleClass(*module), "`" + c.callee + "` (" + *module + ")", *module);
    }
    return named(Kind::Unknown, c.callee);
  }
  for (std::string_view p : kHostPrefixes)
    if (startsWith(r, p))
      return named(Kind::None, r);
  const bool torchName = startsWith(r, "torch.");
  if (torchName) {
    if (isNnModuleClass(r))
      return named(ofModuleClass(r), r, r);
    return named(ofOpName(lastSegment(r)), r, r);
  }
  if (c.receiver.empty()) {
    if (oneOf(r, kBuiltins))
      return named(Kind::None, r);
    if (r == "sum")
      return named(Kind::Statistic, r);
    return named(Kind::Unknown, r);
  }
  // A method on a value that is not an imported module: a tensor method by its name.
  if (r.find('.') != std::string::npos && py.resolve(r) == r) {
    const std::string head = r.substr(0, r.find('.'));
    bool imported = false;
    for (const py::Import &imp : py.imports)
      imported = imported || imp.boundName == head;
    if (!imported)
      return named(ofOpName(c.method), c.callee, c.method);
  }
  return named(Kind::Unknown, r);
}

/// The line forward launches a kernel from: a Triton launch or an extension call in a
/// reachable function; the kernel's own first line when none is seen.
LineRange launchLine(const Facts &f, const std::set<std::string> &reachable, const kernels::Kernel &k) {
  if (k.kind == kernels::KernelKind::Triton) {
    for (const triton::Launch &l : f.triton.launches) {
      if (!reachable.count(l.function))
        continue;
      for (unsigned i : l.candidates)
        if (f.triton.kernels[i].qualname == k.name || f.triton.kernels[i].name == k.name)
          return l.lines;
    }
  } else if (k.source >= 0 && static_cast<std::size_t>(k.source) < f.embedded.sources.size()) {
    const int module = f.embedded.sources[static_cast<std::size_t>(k.source)].module;
    for (const embed::ExtensionCall &c : f.embedded.calls)
      if (reachable.count(c.function) && (c.module == module || c.module < 0 || module < 0))
        return c.lines;
  }
  return {k.lines.begin, k.lines.begin};
}

} // namespace

const char *kindName(Kind k) {
  switch (k) {
  case Kind::None: return "element-wise";
  case Kind::Statistic: return "reduction";
  case Kind::Contraction: return "contraction";
  case Kind::Unknown: return "unclassified";
  }
  return "unclassified";
}

Kind ofOpName(std::string_view name) {
  if (oneOf(name, kStatistic))
    return Kind::Statistic;
  if (oneOf(name, kContraction))
    return Kind::Contraction;
  if (oneOf(name, kNone))
    return Kind::None;
  return Kind::Unknown;
}

Kind ofModuleClass(std::string_view resolved) {
  if (!startsWith(resolved, "torch.nn."))
    return Kind::Unknown;
  const std::string_view name = lastSegment(resolved);
  if (oneOf(name, kStatisticModules))
    return Kind::Statistic;
  if (oneOf(name, kContractionModules))
    return Kind::Contraction;
  if (oneOf(name, kNoneModules))
    return Kind::None;
  return Kind::Unknown;
}

bool isScan(std::string_view name) {
  name = lastSegment(name);
  return name == "cumsum" || name == "cumprod" || name == "cummax" || name == "cummin" || name == "logcumsumexp";
}

bool batchStatistics(std::string_view nameOrClass) {
  const std::string_view name = lastSegment(nameOrClass);
  return startsWith(name, "BatchNorm") || name == "SyncBatchNorm" || name == "batch_norm" ||
         name == "native_batch_norm";
}

Kind ofCall(const py::PythonFacts &py, const py::Call &call, bool *own) {
  const CallKind k = classifyCall(py, nullptr, call);
  if (own)
    *own = k.own;
  return k.kind;
}

GradedPath gradedPath(const Facts &f) {
  GradedPath out;
  out.entryFound = !f.kernels.entryPoints.empty();
  if (!out.entryFound)
    return out;
  const std::set<std::string> reachable(f.kernels.reachableFunctions.begin(), f.kernels.reachableFunctions.end());
  const py::PythonFacts &py = f.python;
  const auto modules = selfModules(py);

  // Extension calls are judged through the C++ facts below, Triton launches through the
  // kernel inventory.
  const auto isExtensionCall = [&](const py::Call &c) {
    for (const embed::ExtensionCall &e : f.embedded.calls)
      if (e.function == c.function && e.lines.overlaps(c.lines) && e.exported == c.method)
        return true;
    return false;
  };
  for (const py::Call &c : py.calls) {
    if (!reachable.count(c.function) || f.triton.findKernel(c.function) || !c.launchedKernel.empty() ||
        isExtensionCall(c))
      continue;
    const CallKind k = classifyCall(py, &modules, c);
    if (k.own || k.kind == Kind::None)
      continue;
    out.sites.push_back({k.kind, k.what, c.function, c.lines, batchStatistics(k.op), isScan(k.op)});
  }
  for (const py::OperatorUse &op : py.operators)
    if (op.op == "@" && reachable.count(op.function))
      out.sites.push_back({Kind::Contraction, "@", op.function, op.lines, false, false});

  // Library work in the extensions forward calls (host code: at::mean, cuBLAS, ...).
  for (const embed::ExtensionCall &e : f.embedded.calls) {
    if (!reachable.count(e.function))
      continue;
    bool known = false;
    for (const cxx::ExportedFunction &ex : f.cxx.exports) {
      if (ex.name != e.exported)
        continue;
      known = true;
      for (int i : ex.libraryCalls) {
        if (i < 0 || static_cast<std::size_t>(i) >= f.cxx.calls.size())
          continue;
        const cxx::CxxCall &c = f.cxx.calls[static_cast<std::size_t>(i)];
        const Kind k = c.category == cxx::CallCategory::Aten ? ofOpName(stripColons(c.callee)) : Kind::Contraction;
        if (k != Kind::None)
          out.sites.push_back({k, c.callee, c.function, c.lines, false, false});
      }
    }
    if (!known)
      out.sites.push_back({Kind::Unknown, "extension function " + e.exported, e.function, e.lines, false, false});
  }
  // Triton launches of kernels this file does not define.
  for (const triton::Launch &l : f.triton.launches)
    if (reachable.count(l.function) && l.candidates.empty() && !l.kernel)
      out.sites.push_back({Kind::Unknown, "kernel " + l.kernelText, l.function, l.lines, false, false});

  for (const kernels::Kernel &k : f.kernels.kernels) {
    const Kind kind = ofKernelWork(k.work);
    const std::string what = std::string(kernels::kernelKindName(k.kind)) + " kernel " + k.name + " (" +
                             kernels::kernelWorkName(k.work) + ")";
    if (!k.reachedFromForward) {
      if (kind == Kind::Statistic || kind == Kind::Contraction)
        out.unreachedReducingKernels.push_back({kind, what, "", {k.lines.begin, k.lines.begin}, false, false});
      continue;
    }
    Site s{kind, what, "", launchLine(f, reachable, k), false, false};
    (kind == Kind::None ? out.pointwiseKernels : out.otherKernels).push_back(std::move(s));
  }
  out.unseenModules = f.kernels.unresolvedLocalImports;
  return out;
}

std::vector<Site> referenceSites(const py::PythonFacts &py, const std::string &modelClass) {
  std::vector<Site> out;
  if (modelClass.empty())
    return out;
  // The methods other than __init__ of the model and of the other module classes of the file
  // (the blocks it is built from: `self.attn = CausalSelfAttention(...)`), and the module
  // functions they call.
  std::set<std::string> counted;
  for (const py::Function &fn : py.functions)
    if (!fn.className.empty() && fn.name != "__init__" && fn.qualname == fn.className + "." + fn.name)
      counted.insert(fn.qualname);
  for (const py::Call &c : py.calls)
    if (counted.count(c.function))
      if (const py::Function *callee = py.findFunction(c.callee); callee && callee->className.empty())
        counted.insert(callee->qualname);
  const auto modules = selfModules(py);
  for (const py::Call &c : py.calls) {
    if (!counted.count(c.function))
      continue;
    const CallKind k = classifyCall(py, &modules, c);
    if (k.own || (k.kind != Kind::Statistic && k.kind != Kind::Contraction))
      continue;
    out.push_back({k.kind, k.what, c.function, c.lines, batchStatistics(k.op), isScan(k.op)});
  }
  for (const py::OperatorUse &op : py.operators)
    if (op.op == "@" && counted.count(op.function))
      out.push_back({Kind::Contraction, "@", op.function, op.lines, false, false});
  return out;
}

} // namespace kbaudit::semantic::cross
