// The tests of a suite's own static gate, by meaning (kbaudit/rules/gate_tests.h). A gate is a
// list of regular expressions over the file's text; each test here asks the facts the question
// the expression stands for: a call of torch.matmul however it is imported, a `try` statement
// rather than the word in a comment, a cast to fp16 in any of the three front ends.

#include "kbaudit/rules/gate_tests.h"

#include "semantic_names.h"

#include "kbaudit/semantic/extension_sources.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/identity_cache.h"
#include "kbaudit/semantic/input_aliases.h"
#include "kbaudit/semantic/tensor_subclass.h"

#include <algorithm>
#include <map>
#include <set>

namespace kbaudit::rules {
namespace {

using pytext::endsWith;
using pytext::lastSegment;
using pytext::startsWith;

bool contains(const std::vector<std::string> &names, std::string_view n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

/// `resolved` names one of `names`: exactly, under a "mod.*" entry, or as a ".method".
bool nameMatches(const std::vector<std::string> &names, std::string_view resolved, std::string_view method,
                 bool hasReceiver) {
  for (const std::string &n : names) {
    if (resolved == n)
      return true;
    if (endsWith(n, ".*") && startsWith(resolved, std::string_view(n).substr(0, n.size() - 1)))
      return true;
    if (startsWith(n, ".") && hasReceiver && method == std::string_view(n).substr(1))
      return true;
  }
  return false;
}

/// `target` is one of `names` or a module under one.
bool underModule(const std::vector<std::string> &names, std::string_view target) {
  for (const std::string &n : names)
    if (target == n || (startsWith(target, n) && target.size() > n.size() && target[n.size()] == '.'))
      return true;
  return false;
}

/// A dotted name one of whose segments is `attr` ("fn.__globals__.update" and
/// `fn.__globals__["x"]` have "__globals__"); subscripts and calls end a segment.
bool hasSegment(std::string_view dotted, std::string_view attr) {
  for (std::size_t at = dotted.find(attr); at != std::string_view::npos; at = dotted.find(attr, at + 1)) {
    const bool starts = at == 0 || dotted[at - 1] == '.';
    const std::size_t end = at + attr.size();
    const bool ends = end == dotted.size() || dotted[end] == '.' || dotted[end] == '[' || dotted[end] == '(';
    if (starts && ends)
      return true;
  }
  return false;
}

/// The branches of the graded entries that key something on an input's identity, address or
/// version against state kept across calls (semantic::cacheKeys): KernelGuard's pointer-keyed
/// caches of inputs or of what was derived from them.
void inputKeyedCaches(const Facts &f, std::vector<GateSite> &out) {
  for (const std::string &entry : f.kernels.entryPoints) {
    const py::Function *fn = f.python.findFunction(entry);
    if (!fn)
      continue;
    const std::set<std::string> inputs = semantic::inputAliases(f.python, *fn);
    if (inputs.empty())
      continue;
    for (const py::Branch &b : f.python.branches)
      if (b.function == entry && (b.kind == "if" || b.kind == "elif") && semantic::testReadsState(f.python, b) &&
          !semantic::cacheKeys(f.python, *fn, b, inputs).empty())
        out.push_back({b.lines, entry, "a cache keyed on an input's identity, address or version"});
  }
}

void calls(const Facts &f, const problems::GateTest &t, std::vector<GateSite> &out) {
  for (const py::Call &c : f.python.calls)
    if (nameMatches(t.names, c.resolved, c.method, !c.receiver.empty()))
      out.push_back({c.lines, c.function, "call of " + (c.resolved.empty() ? c.callee : c.resolved)});
}

void cxxCalls(const Facts &f, const problems::GateTest &t, std::vector<GateSite> &out) {
  for (const cxx::CxxCall &c : f.cxx.calls) {
    // Templated callees print their arguments ("at::zeros<float>").
    const std::string_view callee = std::string_view(c.callee).substr(0, c.callee.find('<'));
    if (contains(t.names, callee) || contains(t.names, c.spelled))
      out.push_back({semantic::solutionSite(f.embedded, c.source, c.lines), "",
                     "C++ call of " + (c.spelled.empty() ? c.callee : c.spelled)});
  }
}

void imports(const Facts &f, const problems::GateTest &t, std::vector<GateSite> &out) {
  for (const py::Import &i : f.python.imports)
    if (underModule(t.names, i.target))
      out.push_back({i.lines, i.function, "import of " + i.target});
}

void decorators(const Facts &f, const problems::GateTest &t, std::vector<GateSite> &out) {
  for (const py::Function &fn : f.python.functions)
    for (const py::Decorator &d : fn.decorators)
      if (contains(t.names, d.resolved))
        out.push_back({d.lines, fn.qualname, "decorator @" + d.resolved});
  for (const py::Call &c : f.python.calls)
    if (contains(t.names, c.resolved))
      out.push_back({c.lines, c.function, "call of " + c.resolved});
}

void tensorSubclasses(const Facts &f, std::vector<GateSite> &out) {
  for (const py::Class &c : f.python.classes)
    if (semantic::isTensorSubclass(f.python, c))
      out.push_back({c.lines, "", "torch.Tensor subclass " + c.name});
  for (const py::Call &c : f.python.calls)
    if (c.method == "_make_subclass" || c.method == "_make_wrapper_subclass" ||
        (c.method == "__new__" && (c.resolved == "torch.Tensor.__new__" || c.receiver == "torch.Tensor")))
      out.push_back({c.lines, c.function, "call of " + (c.resolved.empty() ? c.callee : c.resolved)});
}

/// A dotted name under `attr` is written: an assignment's target passes through it
/// (`fn.__globals__["x"] = v`, `f.__code__ = g.__code__`), or a mutating method is called on it.
bool writesThrough(const py::PythonFacts &py, std::string_view attr, std::vector<GateSite> &out) {
  bool any = false;
  for (const py::Assignment &a : py.assignments)
    if (hasSegment(a.resolved, attr) || hasSegment(a.computedTarget, attr)) {
      out.push_back({a.lines, a.function, std::string(attr) + " written"});
      any = true;
    }
  for (const py::Call &c : py.calls)
    if (!c.receiver.empty() && hasSegment(c.resolved, attr) &&
        (c.method == "update" || c.method == "__setitem__" || c.method == "pop" || c.method == "setdefault" ||
         c.method == "clear" || c.method == "__delitem__")) {
      out.push_back({c.lines, c.function, std::string(attr) + "." + c.method + "(...)"});
      any = true;
    }
  return any;
}

void frameAccess(const Facts &f, const problems::GateTest &t, bool writesOnly, std::vector<GateSite> &out) {
  for (const py::FrameAttribute &fa : f.python.frameAttributes)
    if (contains(t.names, fa.attribute) && (fa.written || !writesOnly))
      out.push_back({fa.lines, fa.function, "frame attribute " + fa.attribute + (fa.written ? " written" : " read")});
  // Attributes of functions (`fn.__globals__`, `fn.__code__`) are not frame attributes: they
  // show in the dotted names assignments write and calls reach, and in the names expressions read.
  for (const std::string &attr : t.names) {
    if (!startsWith(attr, "__"))
      continue;
    writesThrough(f.python, attr, out);
    if (writesOnly)
      continue;
    for (const py::Assignment &a : f.python.assignments)
      if (std::any_of(a.value.names.begin(), a.value.names.end(),
                      [&](const std::string &n) { return hasSegment(n, attr); }))
        out.push_back({a.lines, a.function, attr + " read"});
    for (const py::Call &c : f.python.calls)
      if (hasSegment(c.resolved, attr) ||
          (c.resolved == "getattr" && c.positionalArg(1) && c.positionalArg(1)->value.string &&
           c.positionalArg(1)->value.string->value == attr))
        out.push_back({c.lines, c.function, attr + " reached by a call"});
  }
}

void strings(const Facts &f, const problems::GateTest &t, std::vector<GateSite> &out) {
  for (const py::StringConstant &s : f.python.strings)
    if (!s.docstring && s.value.complete && contains(t.names, s.value.value))
      out.push_back({s.lines, s.function, "the string \"" + s.value.value + "\""});
}

void noKernel(const Facts &f, std::vector<GateSite> &out) {
  if (f.kernels.liveKernels() > 0)
    return;
  // The whole file: nothing in it is a kernel of its own.
  out.push_back({LineRange{1, 1}, "", "no authored kernel (no CUDA __global__, Triton or PTX kernel in the file)"});
}

void downcasts(const Facts &f, const problems::GateTest &t, std::vector<GateSite> &out) {
  const std::vector<std::string> dtypes = t.names.empty() ? std::vector<std::string>{"fp16"} : t.names;
  for (const py::Call &c : f.python.calls) {
    const std::optional<floatcast::HostCast> cast = floatcast::hostCast(c);
    if (cast && cast->conversion && contains(dtypes, cast->dtype))
      out.push_back({c.lines, c.function, "host conversion to " + cast->dtype + " (" + c.callee + ")"});
  }
  for (const triton::Cast &c : f.triton.casts)
    if (!c.bitcast && contains(dtypes, c.target.dtype))
      out.push_back({c.lines, "", "Triton cast to " + c.target.dtype + " (" + c.target.written + ")"});
  const bool half = contains(dtypes, "fp16");
  const bool bf16 = contains(dtypes, "bf16");
  for (const cxx::NumericUse &u : f.cxx.numericTypes) {
    const bool type = ((u.type == cxx::NumericType::Half || u.type == cxx::NumericType::Half2) && half) ||
                      ((u.type == cxx::NumericType::BFloat16 || u.type == cxx::NumericType::BFloat162) && bf16);
    const bool converts = u.kind == cxx::NumericUseKind::Conversion || u.kind == cxx::NumericUseKind::Cast;
    if (type && converts && u.direction != cxx::ConversionDirection::Widening)
      out.push_back({semantic::solutionSite(f.embedded, u.source, u.lines), "", "CUDA conversion " + u.spelling});
  }
}

/// The file mode a call opens with, when it is static: positional 1 or `mode=`.
std::optional<std::string> openMode(const py::PythonFacts &py, const py::Call &c) {
  const py::Argument *m = c.keywordArg("mode");
  if (!m)
    m = c.positionalArg(1);
  if (!m)
    return std::string("r");
  return semantic::staticString(py, m->value);
}

void writesOutside(const Facts &f, const problems::GateTest &t, std::vector<GateSite> &out) {
  for (const py::Call &c : f.python.calls) {
    if (c.resolved != "open" && c.resolved != "io.open" && c.resolved != "builtins.open")
      continue;
    const py::Argument *p = c.positionalArg(0);
    const std::optional<std::string> mode = openMode(f.python, c);
    const std::optional<std::string> path = p ? semantic::staticString(f.python, p->value) : std::nullopt;
    if (!mode || !path || mode->find_first_of("wax+") == std::string::npos || !startsWith(*path, "/"))
      continue;
    if (std::none_of(t.names.begin(), t.names.end(), [&](const std::string &root) {
          return startsWith(*path, root.back() == '/' ? root : root + "/");
        }))
      out.push_back({c.lines, c.function, "open(\"" + *path + "\", \"" + *mode + "\")"});
  }
}

/// KernelGuard's replay family by meaning: the graded entry keeps state across calls (module
/// globals, `self` attributes), tests it, and on a hit returns what it stored, with no work in
/// the arm; a compiled kernel or a workspace it calls, or an arm that launches, is not a replay.
class StoredReplay {
public:
  explicit StoredReplay(const Facts &f) : f_(f) {
    for (const py::Assignment &a : f.python.assignments)
      if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name)
        module_.insert(a.target);
  }

  void sites(std::vector<GateSite> &out) const {
    for (const std::string &entry : f_.kernels.entryPoints) {
      const std::map<std::string, std::string> aliases = aliasesIn(entry);
      const std::set<std::string> stored = storedIn(entry);
      for (const py::Branch &b : f_.python.branches) {
        if (b.function != entry || (b.kind != "if" && b.kind != "elif"))
          continue;
        const bool testsState = std::any_of(b.names.begin(), b.names.end(), [&](const std::string &n) {
          return stored.count(stateOf(rootOf(n), n, aliases)) > 0;
        });
        if (testsState)
          arms(entry, b, aliases, stored, out);
      }
    }
  }

private:
  static std::string rootOf(std::string_view dotted) {
    return std::string(dotted.substr(0, dotted.find_first_of(".[(")));
  }

  /// The state a name or dotted chain reads: a module global, `self.<attr>`, or a local bound
  /// from one of those; "" for anything else.
  std::string stateOf(const std::string &root, std::string_view dotted,
                      const std::map<std::string, std::string> &aliases) const {
    if (root == "self") {
      const std::string_view rest = dotted.size() > 5 ? dotted.substr(5) : std::string_view();
      return rest.empty() ? "" : "self." + rootOf(rest);
    }
    if (auto it = aliases.find(root); it != aliases.end())
      return it->second;
    return module_.count(root) ? root : "";
  }

  std::string stateOf(const py::Expr &e, const std::map<std::string, std::string> &aliases) const {
    const std::string dotted = e.resolved.empty() ? (e.root.empty() ? "" : e.root) : e.resolved;
    if (e.kind == py::ExprKind::Name)
      return stateOf(dotted, dotted, aliases);
    if (e.kind == py::ExprKind::Subscript || e.kind == py::ExprKind::Attribute) {
      if (e.root == "self" && !e.chain.empty() && e.chain[0].kind == py::ChainLink::Kind::Attribute)
        return "self." + e.chain[0].name;
      return e.root.empty() ? "" : stateOf(e.root, e.root, aliases);
    }
    return {};
  }

  /// Locals bound from a read of state: `hit = _RESULTS.get(key)`, `out = self._cache[key]`.
  std::map<std::string, std::string> aliasesIn(const std::string &fn) const {
    std::map<std::string, std::string> out;
    for (const py::Assignment &a : f_.python.assignments) {
      if (a.function != fn || a.kind != py::Assignment::TargetKind::Name)
        continue;
      const py::Expr &v = a.value;
      const bool read = v.kind == py::ExprKind::Subscript || v.kind == py::ExprKind::Name ||
                        (v.kind == py::ExprKind::Call && lastSegment(v.resolved) == "get");
      if (!read || v.root.empty())
        continue;
      const std::string s = v.root == "self" ? stateOf(v, {}) : (module_.count(v.root) ? v.root : "");
      if (!s.empty())
        out[a.target] = s;
    }
    return out;
  }

  /// State the function writes: a global it rebinds, an item or attribute of a global, `self.x`.
  std::set<std::string> storedIn(const std::string &fn) const {
    std::set<std::string> out;
    for (const py::Assignment &a : f_.python.assignments) {
      if (a.function != fn)
        continue;
      const std::string root = rootOf(a.resolved.empty() ? a.target : a.resolved);
      if (a.kind == py::Assignment::TargetKind::SelfAttribute || (root == "self" && a.resolved.size() > 5))
        out.insert("self." + rootOf(std::string_view(a.resolved).substr(5)));
      else if (module_.count(root))
        out.insert(root);
    }
    return out;
  }

  void arms(const std::string &fn, const py::Branch &b, const std::map<std::string, std::string> &aliases,
            const std::set<std::string> &stored, std::vector<GateSite> &out) const {
    for (const py::BranchArm &arm : b.arms) {
      if (!arm.body.valid())
        continue;
      const std::vector<const py::Call *> calls = rubscope::callsIn(f_.python, fn, arm.body);
      if (std::any_of(calls.begin(), calls.end(), [](const py::Call *c) { return c->method != "get"; }))
        continue; // the arm works: a kernel, a library call, a copy
      for (const py::Return &r : f_.python.returns) {
        if (r.function != fn || !rubscope::contains(arm.body, r.lines) || r.value.kind == py::ExprKind::Call)
          continue;
        const std::string s = stateOf(r.value, aliases);
        if (!s.empty() && stored.count(s))
          out.push_back({r.lines, fn, "returns the stored " + s + " on a hit, computing nothing"});
      }
    }
  }

  const Facts &f_;
  std::set<std::string> module_;
};

} // namespace

const std::vector<std::string_view> &gateTestKinds() {
  static const std::vector<std::string_view> kinds = {"try",       "pass",          "call",   "cxx-call",
                                                      "import",    "decorator",     "tensor-subclass",
                                                      "frame-access", "frame-write", "string",     "no-kernel",
                                                      "downcast",  "write-outside", "stored-output-replay",
                                                      "input-keyed-cache"};
  return kinds;
}

std::vector<GateSite> gateSites(const Facts &facts, const problems::GateTest &test) {
  std::vector<GateSite> out;
  const std::string &k = test.kind;
  if (k == "try" || k == "pass") {
    for (const py::KeywordStatement &s : facts.python.keywordStatements)
      if (s.keyword == k)
        out.push_back({s.lines, s.function, "`" + k + "` statement"});
  } else if (k == "call") {
    calls(facts, test, out);
  } else if (k == "cxx-call") {
    cxxCalls(facts, test, out);
  } else if (k == "import") {
    imports(facts, test, out);
  } else if (k == "decorator") {
    decorators(facts, test, out);
  } else if (k == "tensor-subclass") {
    tensorSubclasses(facts, out);
  } else if (k == "frame-access" || k == "frame-write") {
    frameAccess(facts, test, k == "frame-write", out);
  } else if (k == "string") {
    strings(facts, test, out);
  } else if (k == "no-kernel") {
    noKernel(facts, out);
  } else if (k == "downcast") {
    downcasts(facts, test, out);
  } else if (k == "write-outside") {
    writesOutside(facts, test, out);
  } else if (k == "stored-output-replay") {
    StoredReplay(facts).sites(out);
  } else if (k == "input-keyed-cache") {
    inputKeyedCaches(facts, out);
  }
  std::sort(out.begin(), out.end(),
            [](const GateSite &a, const GateSite &b) { return a.lines.begin < b.lines.begin; });
  return out;
}

} // namespace kbaudit::rules
