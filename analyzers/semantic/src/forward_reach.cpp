#include "kbaudit/semantic/forward_reach.h"
#include "kbaudit/semantic/extension_sources.h"

#include "kbaudit/semantic/api_contract.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/python_expr_scan.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic {

using pytext::classOf;
using pytext::lastSegment;
using pytext::startsWith;

namespace {

constexpr int kMaxDepth = 4;

// torch.* names that configure, query or allocate rather than compute.
bool isTorchHousekeeping(std::string_view resolved) {
  for (std::string_view p : {"torch.cuda.", "torch.backends.", "torch.utils.", "torch._", "torch.set_", "torch.get_",
                             "torch.manual_seed", "torch.compile", "torch.no_grad", "torch.inference_mode",
                             "torch.enable_grad", "torch.device", "torch.Size", "torch.dtype", "torch.is_",
                             "torch.library", "torch.distributed", "torch.multiprocessing", "torch.nn.Module",
                             "torch.nn.Parameter", "torch.nn.init", "torch.jit", "torch.autograd.graph",
                             "torch.finfo", "torch.iinfo", "torch.version", "torch.ops.load_library"})
    if (startsWith(resolved, p))
      return true;
  const std::string_view last = lastSegment(resolved);
  for (std::string_view alloc : {"empty", "empty_like", "empty_strided", "tensor", "as_tensor", "from_numpy",
                                 "frombuffer", "Tensor", "Generator", "Event", "Stream"})
    if (last == alloc)
      return true;
  return false;
}

// Tensor methods that compute (the receiver's type is not known, so only unambiguous names).
bool isComputeMethod(std::string_view method) {
  static constexpr std::array<std::string_view, 20> kMethods = {
      "matmul", "mm", "bmm", "addmm", "baddbmm", "copy_", "index_copy_", "scatter_", "scatter_add_",
      "softmax", "log_softmax", "cumsum", "topk", "sort", "einsum", "linear", "conv2d", "replay", "mul_", "add_"};
  return std::find(kMethods.begin(), kMethods.end(), method) != kMethods.end();
}

bool isBuildCall(std::string_view resolved) {
  for (std::string_view s : {"cpp_extension.load", "load_inline", "triton.compile", "ctypes.CDLL", "ctypes.cdll",
                             "cupy.RawModule", "cupy.RawKernel"})
    if (resolved.find(s) != std::string_view::npos)
      return true;
  return startsWith(resolved, "subprocess.") || resolved == "os.system";
}

} // namespace

const py::Argument *argumentOf(const py::Call &c, unsigned position, std::string_view keyword) {
  if (const py::Argument *a = c.positionalArg(position))
    return a;
  return c.keywordArg(keyword);
}

ForwardReach::ForwardReach(const Facts &facts, const py::PythonFacts *reference, const std::string &modelClass) : facts_(facts) {
  reached_.insert(facts.kernels.reachableFunctions.begin(), facts.kernels.reachableFunctions.end());
  entries_ = facts.kernels.entryPoints;
  for (const py::Function &f : facts.python.functions)
    functions_.insert(f.qualname);
  for (const std::string &qualname : functions_) {
    const std::string_view q = qualname;
    tails_.insert(q);
    for (auto dot = q.find('.'); dot != std::string_view::npos; dot = q.find('.', dot + 1))
      tails_.insert(q.substr(dot + 1));
  }
  for (const py::Class &c : facts.python.classes)
    classes_.insert(c.name);
  for (const triton::Kernel &k : facts.triton.kernels) {
    tritonKernels_.insert(k.name);
    tritonKernels_.insert(k.qualname);
  }
  for (const py::Call &c : facts.python.calls)
    calls_[c.function].push_back(&c);
  for (const embed::ExtensionCall &c : facts.embedded.calls)
    extensionCallers_.insert(c.function);
  for (const py::Assignment &a : facts.python.assignments)
    assignmentsTo_[a.target].push_back(&a);
  for (const std::string &entry : facts.kernels.entryPoints)
    if (const py::Function *f = facts.python.findFunction(entry))
      for (const std::string &p : f->params)
        if (p != "self" && !p.empty() && p.front() != '*')
          inputs_.insert(p);
  addHarnessEntries(reference, modelClass);
  extendReach();
  collectExports();
}

void ForwardReach::addHarnessEntries(const py::PythonFacts *reference, const std::string &modelClass) {
  if (!reference)
    return;
  for (const ApiPair &api : redefinedReferenceApi(facts_.python, *reference, modelClass.empty() ? "Model" : modelClass)) {
    // Module-level functions only: the model's methods are reached from forward already.
    const std::string &name = api.solution->qualname;
    if (!api.reference->className.empty() || !functions_.count(name) ||
        std::find(entries_.begin(), entries_.end(), name) != entries_.end())
      continue;
    entries_.push_back(name);
    reached_.insert(name);
  }
}

void ForwardReach::visit(const std::string &qualname, std::vector<std::string> &queue) {
  if (!functions_.count(qualname) || !reached_.insert(qualname).second)
    return;
  queue.push_back(qualname);
}

// The inventory's walk does not follow methods called on objects a function builds
// (`st = _State(...); st.run(x)`) or the harness's module-level entry points; the timing
// rules need both, since graph replays and stream switches live in such helper classes.
void ForwardReach::extendReach() {
  std::vector<std::string> queue(reached_.begin(), reached_.end());
  while (!queue.empty()) {
    const std::string fn = queue.back();
    queue.pop_back();
    const std::string nested = fn + ".";
    for (auto it = functions_.lower_bound(nested); it != functions_.end() && startsWith(*it, nested); ++it)
      visit(*it, queue);
    for (const py::Call *c : callsIn(fn)) {
      if (std::string callee = resolveCallableName(c->callee, fn); !callee.empty())
        visit(callee, queue);
      if (classes_.count(c->resolved))
        for (const char *m : {".__init__", ".__call__", ".forward"})
          visit(c->resolved + m, queue);
      for (const py::Argument &a : c->args)
        if (std::string cb = resolveCallable(a.value, fn); !cb.empty())
          visit(cb, queue);
      if (c->receiver.empty())
        continue;
      for (const py::Expr *v : bindings(c->receiver, fn))
        if (v->kind == py::ExprKind::Call && classes_.count(v->resolved))
          visit(v->resolved + "." + c->method, queue);
    }
  }
}

void ForwardReach::collectExports() {
  const embed::EmbedFacts &em = facts_.embedded;
  for (const embed::ExtensionCall &call : em.calls) {
    if (!reached(call.function))
      continue;
    for (std::size_t i = 0; i < facts_.cxx.exports.size(); ++i) {
      if (!exportServes(em, facts_.cxx.exports[i], call))
        continue;
      if (std::find(exports_.begin(), exports_.end(), i) == exports_.end())
        exports_.push_back(i);
    }
  }
}

const std::vector<const py::Call *> &ForwardReach::callsIn(const std::string &qualname) const {
  static const std::vector<const py::Call *> kNone;
  const auto it = calls_.find(qualname);
  return it == calls_.end() ? kNone : it->second;
}

std::vector<const py::Call *> ForwardReach::callsWithin(const std::string &qualname) const {
  std::vector<const py::Call *> out = callsIn(qualname);
  const std::string nested = qualname + ".";
  for (auto it = calls_.lower_bound(nested); it != calls_.end() && startsWith(it->first, nested); ++it)
    out.insert(out.end(), it->second.begin(), it->second.end());
  return out;
}

namespace {
// A method's class; for a module-level helper whose first parameter is `self`, the class of the
// methods that hand it their own `self` (`def forward(self, x): return _impl(self, x)`).
std::string selfClass(const py::PythonFacts &py, const std::string &from, int depth) {
  std::string cls = classOf(from);
  if (!cls.empty() || depth > 4)
    return cls;
  const py::Function *fn = py.findFunction(from);
  if (!fn || fn->params.empty() || fn->params.front() != "self")
    return cls;
  for (const py::Call &c : py.calls)
    if (c.resolved == from && c.function != from)
      if (const py::Argument *a = c.positionalArg(0); a && a->value.kind == py::ExprKind::Name && a->value.root == "self")
        if (std::string caller = selfClass(py, c.function, depth + 1); !caller.empty())
          return caller;
  return cls;
}
} // namespace

std::string ForwardReach::receiverClass(const std::string &from) const { return selfClass(facts_.python, from, 0); }

std::vector<const py::Expr *> ForwardReach::bindings(std::string_view text, const std::string &from) const {
  std::vector<const py::Expr *> out;
  const auto bound = assignmentsTo_.find(text);
  if (bound == assignmentsTo_.end())
    return out;
  const bool self = startsWith(text, "self.");
  const std::string cls = self ? receiverClass(from) : std::string();
  for (const py::Assignment *ap : bound->second) {
    const py::Assignment &a = *ap;
    if (self) {
      if (a.kind == py::Assignment::TargetKind::SelfAttribute && classOf(a.function) == cls)
        out.push_back(&a.value);
    } else if (a.kind == py::Assignment::TargetKind::Name &&
               (a.function.empty() || scope::inFunction(from, a.function))) {
      out.push_back(&a.value);
    }
  }
  return out;
}

bool ForwardReach::boundToCall(std::string_view text, const std::string &from,
                          const std::vector<std::string_view> &callees) const {
  for (const py::Expr *v : bindings(text, from))
    if (v->kind == py::ExprKind::Call &&
        std::find(callees.begin(), callees.end(), std::string_view(v->resolved)) != callees.end())
      return true;
  return false;
}

std::string ForwardReach::resolveCallable(const py::Expr &e, const std::string &from) const {
  if (e.kind == py::ExprKind::Call && (e.resolved == "functools.partial" || e.resolved == "partial")) {
    // partial(fn, ...): the call's first argument names the function.
    const py::Call *partial = callOf(facts_.python, e, from);
    const py::Argument *fn = partial ? argumentOf(*partial, 0, "func") : nullptr;
    if (fn && fn->value.kind != py::ExprKind::Call)
      return resolveCallable(fn->value, from);
    return {};
  }
  if (e.kind != py::ExprKind::Name && e.kind != py::ExprKind::Attribute)
    return {};
  return resolveCallableName(e.resolved, from);
}

std::string ForwardReach::localCallee(const py::Call &c) const {
  if (!c.launchedKernel.empty())
    return {};
  std::string fn = resolveCallableName(c.callee, c.function);
  if (fn.empty()) {
    for (const py::Expr *v : bindings(c.callee, c.function))
      if (v->kind == py::ExprKind::Call && classes_.count(v->resolved))
        for (const char *m : {".forward", ".__call__"})
          if (functions_.count(v->resolved + m)) {
            fn = v->resolved + m;
            break;
          }
  }
  if (fn.empty() || !reached(fn))
    return {};
  return fn;
}

std::string ForwardReach::resolveCallableName(std::string_view raw, const std::string &from) const {
  const std::string_view text = pyexpr::trimLayout(raw);
  if (text.empty())
    return {};
  // One buffer for the candidate names tried (asked for every call forward reaches).
  std::string candidate;
  if (startsWith(text, "self.")) {
    if (tails_.count(text.substr(5))) {
      candidate = receiverClass(from);
      candidate += '.';
      candidate += text.substr(5);
      if (functions_.count(candidate))
        return candidate;
    }
    for (const py::Expr *v : bindings(text, from))
      if (v->kind == py::ExprKind::Name || v->kind == py::ExprKind::Attribute)
        if (v->resolved != text)
          if (std::string r = resolveCallableName(v->resolved, from); !r.empty())
            return r;
    return {};
  }
  // Nested defs first, from the innermost enclosing function outwards.
  if (tails_.count(text)) {
    for (std::string_view scope = from; !scope.empty();) {
      candidate.assign(scope).append(".").append(text);
      if (functions_.count(candidate))
        return candidate;
      const auto dot = scope.rfind('.');
      scope = dot == std::string_view::npos ? std::string_view() : scope.substr(0, dot);
    }
    if (functions_.count(text))
      return std::string(text);
  }
  for (const py::Expr *v : bindings(text, from))
    if ((v->kind == py::ExprKind::Name || v->kind == py::ExprKind::Attribute) && v->resolved != text)
      if (functions_.count(v->resolved))
        return v->resolved;
  return {};
}

bool ForwardReach::doesWork(const std::string &qualname) const {
  std::set<std::string> seen;
  return doesWork(qualname, 0, seen);
}

bool ForwardReach::doesWork(const std::string &qualname, int depth, std::set<std::string> &seen) const {
  if (qualname.empty() || depth > kMaxDepth || !seen.insert(qualname).second)
    return false;
  if (tritonKernels_.count(qualname))
    return true;
  for (const py::Call *c : callsWithin(qualname)) {
    if (!c->launchedKernel.empty() || extensionCallers_.count(c->function))
      return true;
    if (tritonKernels_.count(c->resolved) || isComputeMethod(c->method))
      return true;
    if (startsWith(c->resolved, "torch.") && !isTorchHousekeeping(c->resolved))
      return true;
    const std::string callee = resolveCallableName(c->callee, c->function);
    if (!callee.empty() && doesWork(callee, depth + 1, seen))
      return true;
  }
  return false;
}

bool ForwardReach::onlyBuilds(const std::string &qualname) const {
  if (qualname.empty() || doesWork(qualname))
    return false;
  std::set<std::string> seen;
  return builds(qualname, 0, seen);
}

bool ForwardReach::builds(const std::string &qualname, int depth, std::set<std::string> &seen) const {
  if (qualname.empty() || depth > kMaxDepth || !seen.insert(qualname).second)
    return false;
  for (const py::Call *c : callsWithin(qualname)) {
    if (isBuildCall(c->resolved))
      return true;
    const std::string callee = resolveCallableName(c->callee, c->function);
    if (!callee.empty() && builds(callee, depth + 1, seen))
      return true;
  }
  return false;
}

} // namespace kbaudit::semantic
