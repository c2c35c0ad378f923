// MEM001 identity-keyed-output-cache: forward hands back a stored result (or reuses data
// derived from an input) because the input is the same object, address or version as last
// time, instead of recomputing from the input's contents.

#include "all_checks.h"
#include "mem_python.h"
#include "semantic_names.h"

#include <algorithm>
#include <map>
#include <cctype>

namespace kbaudit::rules {
namespace {

using mem::KeyKind;

struct Key {
  mem::Comparison cmp;
  std::vector<KeyKind> kinds;
  std::string stateSide; ///< the stored operand (`self._last_x`, `self._cache`)
};

bool has(const std::vector<KeyKind> &kinds, KeyKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); }

std::string kindWords(const std::vector<Key> &keys) {
  bool id = false, ptr = false, ver = false;
  for (const Key &k : keys) {
    id |= has(k.kinds, KeyKind::Identity);
    ptr |= has(k.kinds, KeyKind::Pointer);
    ver |= has(k.kinds, KeyKind::Version);
  }
  std::string out;
  const auto add = [&](bool on, const char *w) {
    if (on)
      out += (out.empty() ? "" : " and ") + std::string(w);
  };
  add(id, "object identity");
  add(ptr, "data_ptr()");
  add(ver, "_version");
  return out;
}

/// `self._x` out of `self._x`, `self._x.data_ptr()`, `getattr(self, "_x", None)`.
std::string stateAttribute(std::string_view side) {
  side = pytext::trim(side);
  std::size_t at = side.find("self.");
  if (at != std::string_view::npos) {
    std::size_t end = at + 5;
    while (end < side.size() && pytext::isIdentChar(side[end]))
      ++end;
    return std::string(side.substr(at, end - at));
  }
  if (const std::size_t g = side.find("getattr(self,"); g != std::string_view::npos) {
    const std::size_t q = side.find_first_of("\"'", g);
    const std::size_t e = q == std::string_view::npos ? q : side.find(side[q], q + 1);
    if (e != std::string_view::npos)
      return "self." + std::string(side.substr(q + 1, e - q - 1));
  }
  std::size_t end = 0;
  while (end < side.size() && pytext::isIdentChar(side[end]))
    ++end;
  return std::string(side.substr(0, end));
}

class Mem001 final : public Check {
public:
  std::string_view id() const override { return "MEM001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const std::set<std::string> reach = mem::reachableFunctions(f);
    const std::set<std::string> entries(f.kernels.entryPoints.begin(), f.kernels.entryPoints.end());
    for (const py::Branch &b : f.python.branches) {
      if (!reach.count(b.function) || (b.kind != "if" && b.kind != "elif"))
        continue;
      if (const py::Function *fn = f.python.findFunction(b.function))
        checkBranch(f, *fn, entries.count(fn->qualname) > 0, b, sink);
    }
    checkMemoDecorators(f, reach, sink);
    checkExtensionCaches(f, sink);
  }

private:
  static std::vector<Key> keysOf(const Facts &f, const py::Function &fn, const py::Branch &b,
                                 const std::set<std::string> &inputs) {
    const std::vector<mem::KeyLocal> locals = mem::keyLocals(f.python, fn, inputs);
    const std::set<std::string> idFns = mem::identityFunctions(f.python);
    // Only a tensor the caller passed is found by identity; a local built from its shape or
    // device (a workspace key) hashes by value.
    std::set<std::string> parameterInputs;
    for (const std::string &p : fn.params)
      if (inputs.count(p) && p != "self")
        parameterInputs.insert(p);
    std::vector<Key> keys;
    for (const mem::Comparison &c : mem::comparisons(b.condition)) {
      if (c.left == "None" || c.right == "None")
        continue;
      const bool identityOp = c.op == "is" || c.op == "is not";
      std::vector<KeyKind> l = mem::keyKindsOf(c.left, identityOp, inputs, locals, idFns);
      std::vector<KeyKind> r = mem::keyKindsOf(c.right, identityOp, inputs, locals, idFns);
      const bool membership = c.op == "in" || c.op == "not in";
      // `x in self.cache`: a dict or set (weak-keyed or not) finds a tensor by its hash, which
      // is its identity; so does a tuple of tensors.
      if (membership && l.empty() && mem::isBareInputKey(c.left, parameterInputs))
        l.push_back(KeyKind::Identity);
      Key k{c, {}, {}};
      if (!l.empty() && r.empty() && mem::isStoredState(c.right, f.python)) {
        k.kinds = l;
        k.stateSide = c.right;
      } else if (!membership && !r.empty() && l.empty() && mem::isStoredState(c.left, f.python)) {
        k.kinds = r;
        k.stateSide = c.left;
      } else {
        continue;
      }
      // A shape match alone is how compiled kernels and workspaces are keyed.
      k.kinds.erase(std::remove(k.kinds.begin(), k.kinds.end(), KeyKind::Shape), k.kinds.end());
      if (!k.kinds.empty())
        keys.push_back(std::move(k));
    }
    return keys;
  }

  /// Items of a return that are state kept across calls (or locals read from it).
  static bool returnsStoredState(const Facts &f, const py::Function &fn, std::string_view returned) {
    const std::vector<std::string> items = mem::returnedItems(returned);
    if (items.empty())
      return false;
    for (const std::string &item : items) {
      bool stored = mem::isStoredState(item, f.python);
      for (const py::Assignment &a : f.python.assignments)
        if (!stored && a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Name &&
            pytext::mentionsName(item, a.target) && mem::isStoredState(a.value.text, f.python) &&
            a.value.kind != py::ExprKind::Call)
          stored = true;
      if (!stored)
        return false;
    }
    return true;
  }

  /// Any call on `lines` that does work (a kernel, an extension, a graph replay, a method).
  static bool computesOn(const Facts &f, const py::Function &fn, LineRange lines, LineRange test) {
    for (const py::Call *c : mem::callsOn(f.python, fn.qualname, lines))
      if (!mem::isInertCall(*c) && !(c->lines.begin >= test.begin && c->lines.end <= test.end))
        return true;
    return false;
  }

  /// The return that serves a cache hit: inside the hit block, or the first one after a miss
  /// block that only refills the cache.
  static const mem::Statement *hitReturn(const std::vector<mem::Statement> &rets, LineRange hit, bool afterBlock) {
    for (const mem::Statement &r : rets) {
      if (!afterBlock && mem::within(r.lines, hit))
        return &r;
      if (afterBlock && r.lines.begin > hit.end)
        return &r;
    }
    return nullptr;
  }

  static void checkBranch(const Facts &f, const py::Function &fn, bool entry, const py::Branch &b, FindingSink &sink) {
    const std::set<std::string> inputs = mem::inputNames(f.python, fn);
    if (inputs.empty())
      return;
    const std::vector<Key> keys = keysOf(f, fn, b, inputs);
    if (keys.empty())
      return;
    const bool positive = std::all_of(keys.begin(), keys.end(), [](const Key &k) { return !k.cmp.negated; });
    const bool negative = std::all_of(keys.begin(), keys.end(), [](const Key &k) { return k.cmp.negated; });
    if (!positive && !negative)
      return;
    const bool versioned = std::any_of(keys.begin(), keys.end(), [](const Key &k) { return has(k.kinds, KeyKind::Version); });
    const bool identity = std::any_of(keys.begin(), keys.end(), [](const Key &k) { return has(k.kinds, KeyKind::Identity); });
    const mem::BranchBlocks blocks = mem::blocksOf(b);
    const std::vector<mem::Statement> rets = mem::returns(f.python, fn);

    // A hit that returns what was stored, with no work between the test and the return.
    const LineRange missEnd{blocks.body.begin, blocks.orelse.valid() ? blocks.orelse.end : blocks.body.end};
    const mem::Statement *ret = positive ? hitReturn(rets, blocks.body, false) : hitReturn(rets, missEnd, true);
    if (ret && returnsStoredState(f, fn, ret->text)) {
      const LineRange between = positive ? LineRange{blocks.body.begin, ret->lines.end}
                                         : LineRange{missEnd.end + 1, ret->lines.end};
      if (!computesOn(f, fn, between, b.lines)) {
        reportHit(fn, entry, b, *ret, keys, versioned, identity, sink);
        return;
      }
    }
    // A miss that refills data derived from the input, reused while the same object comes back.
    const LineRange miss = negative ? blocks.body : blocks.orelse;
    if (!miss.valid() || versioned)
      return;
    checkDerivedRefill(f, fn, b, miss, keys, identity, sink);
  }

  static void reportHit(const py::Function &fn, bool entry, const py::Branch &b,
                        const mem::Statement &ret, const std::vector<Key> &keys, bool versioned, bool identity,
                        FindingSink &sink) {
    const LineRange lines{b.lines.begin, ret.lines.end - b.lines.begin <= 4 ? ret.lines.end : b.lines.end};
    const MessageVars vars{{"key", kindWords(keys)}, {"function", fn.qualname},
                           {"cached", "the stored result `" + std::string(pytext::trim(ret.text)) + "`"}};
    if (entry) {
      // The entry point itself answers from the store: the timed call does no work.
      sink.report(lines, vars, "hit path returns `" + ret.text + "` with no kernel, extension or replay call");
      return;
    }
    // A helper's stored value may be derived input data or a packed weight: weaker evidence,
    // and a version check already invalidates on in-place writes.
    if (versioned)
      return;
    sink.report(lines, vars, "helper returns stored `" + ret.text + "` while the input is the same object",
                identity ? Confidence::Medium : Confidence::Low);
  }

  /// The key's stored side is assigned from an input (`self._last_x = x`), not from the
  /// solution's own buffers (a state it handed back last call).
  static bool keyStoredFromInput(const Facts &f, const Key &k) {
    if (k.cmp.op == "in" || k.cmp.op == "not in")
      return true; // the dict is keyed by the input-derived expression itself
    const std::string attr = stateAttribute(k.stateSide);
    if (attr.empty())
      return false;
    for (const py::Assignment &a : f.python.assignments) {
      if (a.target != attr)
        continue;
      const py::Function *owner = f.python.findFunction(a.function);
      if (!owner)
        continue;
      // The input object itself, its address or its id(), not something sized by it.
      const std::set<std::string> inputs = mem::inputNames(f.python, *owner);
      std::string_view v = pytext::trim(a.value.text);
      if (v.rfind("id(", 0) == 0)
        v = pytext::trim(v.substr(3));
      std::size_t n = 0;
      while (n < v.size() && pytext::isIdentChar(v[n]))
        ++n;
      if (inputs.count(std::string(v.substr(0, n))))
        return true;
    }
    return false;
  }

  static bool capturesGraph(const Facts &f, const py::Function &fn, LineRange miss) {
    const auto graphy = [](std::string_view s) {
      for (std::string_view w : {"graph", "Graph", "replay", "capture"})
        if (s.find(w) != std::string_view::npos)
          return true;
      return false;
    };
    for (const py::Call *c : mem::callsOn(f.python, fn.qualname, miss)) {
      if (graphy(c->resolved) || graphy(c->callee))
        return true;
      // One level into the class's own helpers: `self._build(x)`.
      if (c->receiver == "self" && !fn.className.empty())
        for (const py::Call &inner : f.python.calls)
          if (inner.function == fn.className + "." + c->method && (graphy(inner.resolved) || graphy(inner.callee)))
            return true;
    }
    return false;
  }

  /// `text` reads the inputs only through their metadata (shape, sizes, dtype, device), directly
  /// or through locals of `fn` bound to such values: a launch plan, not data of the input.
  static bool metadataOnly(const Facts &f, const py::Function &fn, std::string_view text,
                           const std::set<std::string> &inputs, int depth = 0) {
    static constexpr std::string_view kMeta[] = {".shape",  ".size(", ".dtype", ".device", ".numel(",
                                                 ".dim(",   ".ndim",  ".stride(", ".is_contiguous("};
    for (const std::string &n : inputs)
      for (std::size_t pos = text.find(n); pos != std::string_view::npos; pos = text.find(n, pos + 1)) {
        const bool word = (pos == 0 || !pytext::isIdentChar(text[pos - 1])) &&
                          (pos + n.size() == text.size() || !pytext::isIdentChar(text[pos + n.size()]));
        if (!word)
          continue;
        const std::string_view after = text.substr(pos + n.size());
        // `store[x]`: the tensor as a key (its identity), the stored value is checked where stored.
        if (pos > 0 && text[pos - 1] == '[' && after.rfind("]", 0) == 0)
          continue;
        if (!std::any_of(std::begin(kMeta), std::end(kMeta), [&](std::string_view m) { return after.rfind(m, 0) == 0; }))
          return false;
      }
    if (depth >= 3)
      return true;
    for (const py::Assignment &a : f.python.assignments)
      if (a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Name && !inputs.count(a.target) &&
          pytext::mentionsName(text, a.target) && !metadataOnly(f, fn, a.value.text, inputs, depth + 1))
        return false;
    return true;
  }

  static void checkDerivedRefill(const Facts &f, const py::Function &fn, const py::Branch &b, LineRange miss,
                                 const std::vector<Key> &keys, bool identity, FindingSink &sink) {
    if (!std::any_of(keys.begin(), keys.end(), [&](const Key &k) { return keyStoredFromInput(f, k); }))
      return;
    std::set<std::string> keyAttrs;
    for (const Key &k : keys)
      if (k.cmp.op != "in" && k.cmp.op != "not in")
        keyAttrs.insert(stateAttribute(k.stateSide));
    std::string derived;
    std::set<std::string> inputs = mem::inputNames(f.python, fn);
    inputs.erase("self"); // a method's body moved into a helper still takes the module first
    for (const py::Assignment &a : f.python.assignments) {
      if (a.function != fn.qualname || !mem::within(a.lines, miss) || a.target.rfind("self.", 0) != 0)
        continue;
      // A launch plan sized by the input holds nothing of its data, unless a call in the miss
      // fills it (a buffer allocated from the shape, then written by a kernel from the input).
      const std::string attr = stateAttribute(a.target);
      const auto filled = [&] {
        for (const py::Call *c : mem::callsOn(f.python, fn.qualname, miss))
          for (const py::Argument &arg : c->args)
            if (pytext::mentionsName(arg.value.text, attr))
              return true;
        return false;
      };
      if (metadataOnly(f, fn, a.value.text, inputs) && !filled())
        continue;
      if (!keyAttrs.count(attr)) {
        derived = attr;
        break;
      }
    }
    if (derived.empty() || capturesGraph(f, fn, miss))
      return;
    sink.report(b.lines,
                {{"key", kindWords(keys)}, {"function", fn.qualname},
                 {"cached", "data derived from the input (`" + derived + "`)"}},
                "no _version or content check: an in-place overwrite of the same tensor reuses stale `" + derived + "`",
                identity ? Confidence::Medium : Confidence::Low);
  }

  /// functools.lru_cache / cache on a function handed input tensors: tensors hash by identity.
  static bool isMemoizer(std::string_view resolved) {
    return resolved.rfind("functools.lru_cache", 0) == 0 || resolved.rfind("functools.cache", 0) == 0;
  }

  static void checkMemoDecorators(const Facts &f, const std::set<std::string> &reach, FindingSink &sink) {
    for (const py::Function &g : f.python.functions) {
      // What callers call it by -> how it is memoized: the def's own name under `@lru_cache`, the
      // name bound by `cached = lru_cache(maxsize=8)(run)` (the front end gives `run` that
      // decorator on the binding's line).
      std::map<std::string, std::string> names;
      for (const py::Decorator &d : g.decorators) {
        if (!isMemoizer(d.resolved))
          continue;
        if (g.lines.contains(d.lines.begin)) {
          names.try_emplace(g.name, d.text);
          names.try_emplace(g.qualname, d.text);
          continue;
        }
        for (const py::Assignment &a : f.python.assignments)
          if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && a.lines.contains(d.lines.begin))
            names.try_emplace(a.target, d.text + "(" + g.qualname + ")");
      }
      const bool memo = !names.empty();
      // The memoized function must do the timed work itself: a kernel launch or an extension
      // call inside it (a cached table built from an integer argument is legitimate).
      const bool launches = std::any_of(f.python.calls.begin(), f.python.calls.end(), [&](const py::Call &c) {
        return c.function == g.qualname && !c.launchedKernel.empty();
      }) || std::any_of(f.embedded.calls.begin(), f.embedded.calls.end(), [&](const embed::ExtensionCall &c) {
        return c.function == g.qualname;
      });
      if (!memo || g.params.empty() || !launches)
        continue;
      for (const py::Call &c : f.python.calls) {
        const auto how = names.count(c.callee) ? names.find(c.callee) : names.find(c.resolved);
        if (!reach.count(c.function) || how == names.end())
          continue;
        const py::Function *caller = f.python.findFunction(c.function);
        if (!caller)
          continue;
        const std::set<std::string> inputs = mem::inputNames(f.python, *caller);
        const bool tensorArg = std::any_of(c.args.begin(), c.args.end(), [&](const py::Argument &a) {
          return (a.value.kind == py::ExprKind::Name || a.value.kind == py::ExprKind::Subscript) &&
                 std::any_of(inputs.begin(), inputs.end(), [&](const std::string &n) { return pytext::mentionsName(a.value.text, n); });
        });
        if (!tensorArg)
          continue;
        sink.report(c.lines,
                    {{"key", "object identity"}, {"function", c.function},
                     {"cached", "the result of memoized `" + g.name + "` (" + how->second + ")"}},
                    "tensors hash by object identity, so a repeated input object returns the stored result");
        break;
      }
    }
  }

  /// Extension code keeping tensors in a static keyed by data_ptr(): the same hack in C++,
  /// but weights are keyed the same way, so it is listed for review.
  static void checkExtensionCaches(const Facts &f, FindingSink &sink) {
    for (const cxx::MutableStatic &s : f.cxx.statics) {
      if (!s.holdsTensor || !s.keyedByDataPtr || !s.written || !s.lines.valid())
        continue;
      sink.report(s.lines,
                  {{"key", "data_ptr()"}, {"function", s.function.empty() ? s.name : s.function},
                   {"cached", "tensors in static `" + s.name + "` (" + s.type + ")"}},
                  "extension state keyed by tensor addresses; whether the key is an input or a weight is not known",
                  Confidence::Low);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeMem001() { return std::make_unique<Mem001>(); }

} // namespace kbaudit::rules
