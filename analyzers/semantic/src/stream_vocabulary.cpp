#include "stream_vocabulary.h"

#include "kbaudit/semantic/extension_sources.h"

#include <algorithm>

namespace kbaudit::semantic::streams {
namespace {

template <std::size_t N> bool among(const std::string_view (&set)[N], std::string_view s) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

constexpr std::string_view kStreamContexts[] = {"torch.cuda.stream", "torch.cuda.StreamContext",
                                                "torch.cuda.streams.StreamContext", "torch.cuda.use_stream"};
constexpr std::string_view kSetStream[] = {"torch.cuda.set_stream", "torch.cuda.streams.set_stream",
                                           "torch.set_stream"};
constexpr std::string_view kGraphCapture[] = {"torch.cuda.graph", "torch.cuda.graphs.graph"};
constexpr std::string_view kConstructors[] = {"torch.cuda.Stream", "torch.cuda.streams.Stream", "torch.Stream"};
constexpr std::string_view kCurrent[] = {"torch.cuda.current_stream", "torch.cuda.streams.current_stream",
                                         "torch.current_stream", "torch.accelerator.current_stream"};
constexpr std::string_view kDefault[] = {"torch.cuda.default_stream", "torch.cuda.streams.default_stream"};
constexpr std::string_view kEvents[] = {"torch.cuda.Event", "torch.cuda.streams.Event", "torch.Event"};

/// Methods that read or reshape metadata, manage containers, or format text: no kernel.
constexpr std::string_view kHostMethods[] = {
    "size", "dim", "numel", "stride", "is_contiguous", "data_ptr", "element_size", "get_device", "nelement",
    "storage_offset", "is_floating_point", "is_complex", "ndimension", "type", "__len__", "append", "extend",
    "insert", "get", "items", "keys", "values", "pop", "popitem", "setdefault", "update", "clear", "copy_from",
    "format", "join", "split", "startswith", "endswith", "replace", "lower", "upper", "strip", "encode", "decode",
    "add_module", "register_buffer", "register_parameter", "named_parameters", "parameters", "buffers", "modules",
    "children", "state_dict", "load_state_dict", "train", "eval", "requires_grad_", "record_stream", "query",
    "elapsed_time", "wait_stream", "wait_event", "record_event", "record", "wait", "synchronize", "capture_begin",
    "capture_end", "cuda_stream", "release", "acquire", "put", "put_nowait", "get_nowait", "debug_dump",
    "enable_debug_mode", "pool", "reset"};

constexpr std::string_view kBuiltins[] = {
    "len", "range", "isinstance", "issubclass", "hasattr", "getattr", "setattr", "delattr", "print", "int", "float",
    "bool", "str", "tuple", "list", "dict", "set", "frozenset", "min", "max", "abs", "round", "enumerate", "zip",
    "map", "filter", "sorted", "reversed", "id", "hash", "type", "super", "iter", "next", "any", "all", "repr",
    "object", "callable", "divmod", "pow", "vars", "locals", "globals", "format", "ord", "chr", "slice"};

/// torch functions that configure, describe or allocate without a kernel.
constexpr std::string_view kTorchHost[] = {
    "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.is_grad_enabled", "torch.set_grad_enabled",
    "torch.device", "torch.Size", "torch.get_default_dtype", "torch.set_default_dtype", "torch.manual_seed",
    "torch.is_tensor", "torch.is_floating_point", "torch.empty", "torch.empty_like", "torch.empty_strided",
    "torch.compile", "torch.finfo", "torch.iinfo", "torch.result_type", "torch.promote_types", "torch.autocast",
    "torch.is_inference_mode_enabled", "torch.broadcast_shapes", "torch.get_num_threads", "torch.set_num_threads",
    "torch.set_float32_matmul_precision", "torch.use_deterministic_algorithms"};
constexpr std::string_view kTorchHostPrefixes[] = {"torch.cuda.", "torch.backends.", "torch.jit.", "torch.utils.",
                                                   "torch._dynamo.", "torch.library.", "torch.autograd.graph.",
                                                   "torch.accelerator."};

template <std::size_t N> bool startsWithAny(std::string_view s, const std::string_view (&prefixes)[N]) {
  return std::any_of(std::begin(prefixes), std::end(prefixes), [&](std::string_view p) { return s.starts_with(p); });
}

} // namespace

bool isStreamContext(std::string_view r) { return among(kStreamContexts, r); }
bool isSetStream(std::string_view r) { return among(kSetStream, r); }
bool isGraphCapture(std::string_view r) { return among(kGraphCapture, r); }
bool isStreamConstructor(std::string_view r) { return among(kConstructors, r); }

bool isHostRead(std::string_view m) { return m == "item" || m == "cpu" || m == "tolist" || m == "numpy"; }

bool isCopyIn(const py::Call &c) {
  for (std::string_view m : {"copy_", "index_copy_", "set_", "_foreach_copy_"})
    if (c.method == m)
      return true;
  return c.resolved == "torch._foreach_copy_";
}

bool isJoinCall(const py::Call &c) {
  return c.method == "wait_stream" || c.method == "wait_event" || c.method == "synchronize" ||
         (c.method == "wait" && !c.receiver.empty()) || c.resolved == "torch.cuda.synchronize";
}

bool doesGpuWork(const py::Call &c, const py::PythonFacts &py) {
  if (!c.launchedKernel.empty())
    return true;
  const std::string &r = c.resolved;
  if (among(kBuiltins, r) || among(kHostMethods, c.method))
    return false;
  if (r.starts_with("torch.")) {
    if (among(kTorchHost, r) || startsWithAny(r, kTorchHostPrefixes))
      return false;
    return true;
  }
  if (c.method == "replay")
    return true;
  // A method on an object (a module, a tensor, an extension): work unless it is host-side.
  if (!c.receiver.empty()) {
    // A module of the standard library or a non-torch import (math.sqrt, os.getenv, time.time).
    for (const py::Import &i : py.imports)
      if (i.boundName == c.receiver && !i.target.starts_with("torch"))
        return false;
    return true;
  }
  return false;
}

std::optional<ExportStreams> exportStreamsOf(const ForwardReach &reach, const py::Call &c) {
  const Facts &f = reach.facts();
  const embed::ExtensionCall *call = nullptr;
  for (const embed::ExtensionCall &e : f.embedded.calls)
    if (e.function == c.function && e.lines.begin == c.lines.begin && e.exported == c.method) {
      call = &e;
      break;
    }
  if (!call)
    return std::nullopt;
  ExportStreams out;
  bool known = false;
  for (const cxx::ExportedFunction &ex : f.cxx.exports) {
    if (!exportServes(f.embedded, ex, *call))
      continue;
    known = true;
    for (int li : ex.launches) {
      const cxx::KernelLaunch &l = f.cxx.launches[static_cast<std::size_t>(li)];
      switch (l.streamKind) {
      case cxx::StreamKind::Current: out.current = true; break;
      case cxx::StreamKind::Default: out.legacyDefault = true; break;
      case cxx::StreamKind::PerThread: out.current = true; break;
      case cxx::StreamKind::Other: out.parameter = true; break;
      }
    }
    out.library = out.library || ex.callsLibrary();
  }
  if (!known || (!out.current && !out.legacyDefault && !out.parameter))
    out.current = true; // unseen code, or work without launches of its own: the current stream
  return out;
}

std::string localCallee(const ForwardReach &reach, const py::Call &c) { return reach.localCallee(c); }

StreamNames::StreamNames(const ForwardReach &reach) : reach_(reach) {
  info_.push_back({"the caller's stream", false});
}

std::string StreamNames::nameKey(std::string_view target, std::string_view function) {
  if (target.starts_with("self."))
    return std::string(target);
  std::string key(function);
  key += '\n';
  key += target;
  return key;
}

int StreamNames::intern(const std::string &key, const std::string &spelled, bool side) {
  const auto [it, inserted] = ids_.try_emplace(key, static_cast<int>(info_.size()));
  if (inserted)
    info_.push_back({spelled, side});
  return it->second;
}

int StreamNames::evaluateCall(const py::Call &c, int cur) const {
  if (among(kCurrent, c.resolved))
    return cur;
  if (among(kDefault, c.resolved))
    return kCaller;
  return -1;
}

int StreamNames::fromBindings(std::string_view dotted, const std::string &from, bool element) {
  bool created = false, caller = false;
  for (const py::Expr *v : reach_.bindings(dotted, from)) {
    if (v->kind == py::ExprKind::Call) {
      created = created || among(kConstructors, v->resolved);
      caller = caller || among(kCurrent, v->resolved) || among(kDefault, v->resolved);
      continue;
    }
    if (v->kind == py::ExprKind::Conditional) {
      // `torch.cuda.Stream() if torch.cuda.is_available() else None`: on the harness's GPU, the
      // created stream.
      for (const std::string &n : v->names)
        created = created || among(kConstructors, reach_.python().resolve(n));
      continue;
    }
    if (element) {
      // A list of streams: `[torch.cuda.Stream() for _ in range(n)]` or a literal list.
      for (const std::string &n : v->names)
        created = created || among(kConstructors, reach_.python().resolve(n));
      for (const py::Expr &item : v->elements)
        created = created || (item.kind == py::ExprKind::Call && among(kConstructors, item.resolved));
    }
  }
  if (created)
    return intern(std::string(dotted) + (element ? "[]" : ""), std::string(dotted) + (element ? "[...]" : ""), true);
  if (caller)
    return kCaller; // bound to the stream current where it was bound: the caller's
  return -1;
}

int StreamNames::evaluateName(std::string_view dotted, const Bound &bound, int cur, const std::string &from) {
  if (auto it = bound.find(nameKey(dotted, from)); it != bound.end())
    return it->second;
  if (int s = fromBindings(dotted, from, false); s >= 0)
    return s;
  (void)cur;
  return intern("?" + std::string(dotted), std::string(dotted), false);
}

int StreamNames::evaluateIfStream(const py::Expr &e, const Bound &bound, int cur, const std::string &from) {
  switch (e.kind) {
  case py::ExprKind::Call:
    if (among(kConstructors, e.resolved))
      return intern("new:" + std::to_string(e.lines.begin) + ":" + e.text, e.text, true);
    if (among(kCurrent, e.resolved))
      return cur;
    if (among(kDefault, e.resolved))
      return kCaller;
    return -1;
  case py::ExprKind::Name:
  case py::ExprKind::Attribute: {
    const std::string &name = e.resolved.empty() ? e.text : e.resolved;
    if (auto it = bound.find(nameKey(name, from)); it != bound.end())
      return it->second;
    return fromBindings(name, from, false);
  }
  case py::ExprKind::Subscript:
    if (!e.root.empty() && !e.chain.empty() && e.chain.back().kind == py::ChainLink::Kind::Subscript) {
      std::string list = e.root;
      for (std::size_t i = 0; i + 1 < e.chain.size(); ++i) {
        if (e.chain[i].kind != py::ChainLink::Kind::Attribute)
          return -1;
        list += "." + e.chain[i].name;
      }
      return fromBindings(list, from, true);
    }
    return -1;
  default:
    return -1;
  }
}

int StreamNames::evaluate(const py::Expr &e, const Bound &bound, int cur, const std::string &from) {
  if (e.kind == py::ExprKind::None)
    return cur; // torch.cuda.stream(None) changes nothing
  if (const int s = evaluateIfStream(e, bound, cur, from); s >= 0)
    return s;
  return intern("?" + e.text, e.text, false);
}

int StreamNames::evaluateHandle(const py::Expr &e, const Bound &bound, int cur, const std::string &from) {
  // `<stream>.cuda_stream`: the chain without its last link names the stream.
  if (e.kind == py::ExprKind::Attribute && !e.chain.empty() && e.chain.back().name == "cuda_stream") {
    if (e.chain.size() >= 2 && e.chain[e.chain.size() - 2].kind == py::ChainLink::Kind::Call) {
      // torch.cuda.current_stream().cuda_stream
      for (std::string_view c : kCurrent)
        if (e.resolved.starts_with(c))
          return cur;
      for (std::string_view c : kDefault)
        if (e.resolved.starts_with(c))
          return kCaller;
    }
    std::string owner = e.root;
    for (std::size_t i = 0; i + 1 < e.chain.size(); ++i) {
      if (e.chain[i].kind != py::ChainLink::Kind::Attribute)
        return intern("?" + e.text, e.text, false);
      owner += "." + e.chain[i].name;
    }
    return evaluateName(owner, bound, cur, from);
  }
  return intern("?" + e.text, e.text, false);
}

int StreamNames::element(const py::Expr &list, int index, const std::string &from) {
  if (list.kind != py::ExprKind::Name && list.kind != py::ExprKind::Attribute)
    return -1;
  const std::string name = list.resolved.empty() ? list.text : list.resolved;
  if (fromBindings(name, from, true) < 0)
    return -1;
  const std::string key = name + "[" + std::to_string(index) + "]";
  return intern(key, key, true);
}

bool StreamNames::boundToEvent(std::string_view name, const std::string &from) const {
  for (const py::Expr *v : reach_.bindings(name, from))
    if (v->kind == py::ExprKind::Call && (among(kEvents, v->resolved) || v->resolved.ends_with("record_event")))
      return true;
  return false;
}

std::string StreamNames::spelled(int id) const {
  return id >= 0 && static_cast<std::size_t>(id) < info_.size() ? info_[static_cast<std::size_t>(id)].spelled
                                                                 : std::string("an unknown stream");
}

bool StreamNames::isSide(int id) const {
  return id > 0 && static_cast<std::size_t>(id) < info_.size() && info_[static_cast<std::size_t>(id)].side;
}

} // namespace kbaudit::semantic::streams
