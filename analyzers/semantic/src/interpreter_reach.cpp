#include "kbaudit/semantic/interpreter_reach.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic::interp {
namespace {

using namespace pytext;
using namespace scope;

// Every live object, or the objects that refer to / are referred to by one.
constexpr std::array<std::string_view, 3> kGcScans = {"gc.get_objects", "gc.get_referrers", "gc.get_referents"};
// Frames of the callers (or of every thread): never only the function's own frame.
constexpr std::array<std::string_view, 4> kCallerFrames = {"inspect.stack", "inspect.getouterframes",
                                                           "sys._current_frames", "traceback.walk_stack"};
// Calls that hand back (a container of) the objects they are given, not a new value.
constexpr std::array<std::string_view, 9> kKeepIdentity = {"next",   "list",   "tuple", "iter", "reversed",
                                                           "sorted", "filter", "dict",  "set"};
constexpr std::array<std::string_view, 6> kItemAccess = {"get", "values", "items", "pop", "setdefault", "__getitem__"};
// Methods that change a dict or namespace in place (torch's in-place ops end in `_`).
constexpr std::array<std::string_view, 5> kDictMutators = {"update", "setdefault", "clear", "__setitem__",
                                                           "__delitem__"};
// Calls that only measure what they are given (a count for a log line, a type test).
constexpr std::array<std::string_view, 17> kMeasures = {
    "len",      "sum",          "id",       "type",   "isinstance",    "issubclass",      "str",
    "repr",     "hasattr",      "callable", "format", "sys.getsizeof", "torch.is_tensor", "numel",
    "nelement", "element_size", "dim"};

template <std::size_t N> bool among(const std::array<std::string_view, N> &set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

bool isNamespace(std::string_view attr) { return attr == "f_locals" || attr == "f_globals" || attr == "f_builtins"; }

bool inPlace(const py::Call &c) {
  const std::string &m = c.method;
  return (m.size() > 1 && m.back() == '_' && m.front() != '_') || among(kDictMutators, m);
}

bool measures(const py::Call &c) { return among(kMeasures, c.resolved) || among(kMeasures, c.method); }

std::string parentScope(const std::string &fn) {
  const auto dot = fn.rfind('.');
  return dot == std::string::npos ? std::string{} : fn.substr(0, dot);
}

} // namespace

InterpreterReach::InterpreterReach(const Facts &facts) : facts_(facts), py_(facts.python), scope_(facts) {
  // What this reports (origins, namespace writes) starts only at a gc scan, PyFrame_LocalsToFast
  // or a frame attribute; a program with none of them (nearly every one) skips the fixpoints,
  // whose calls-by-assignments walks were 1.4% of a cold audit.
  const bool seeded = !py_.frameAttributes.empty() ||
                      std::any_of(py_.calls.begin(), py_.calls.end(), [](const py::Call &c) {
                        return among(kGcScans, c.resolved) || lastSegment(c.resolved) == "PyFrame_LocalsToFast";
                      });
  if (!seeded)
    return;
  bindFrames();
  findOrigins();
  bindValues();
  findHarm();
  findUses();
}

std::string InterpreterReach::keyFor(const std::string &fn, const std::string &name) const {
  return (startsWith(name, "self.") ? classOf(fn) : fn) + "|" + name;
}

InterpreterReach::Taint InterpreterReach::lookup(const std::string &fn, const std::string &name) const {
  if (name.empty())
    return {};
  if (startsWith(name, "self.")) {
    auto it = names_.find(classOf(fn) + "|" + name);
    return it == names_.end() ? Taint{} : it->second;
  }
  // The function's own names, then enclosing functions' (closures), then module globals.
  for (std::string scope = fn;; scope = parentScope(scope)) {
    if (auto it = names_.find(scope + "|" + name); it != names_.end())
      return it->second;
    if (scope.empty())
      return {};
  }
}

template <typename Reads>
InterpreterReach::Taint InterpreterReach::strongest(const std::string &fn, Reads readsName) const {
  Taint best;
  for (const auto &[key, t] : names_) {
    if (t.reach <= best.reach)
      continue;
    const auto bar = key.find('|');
    const std::string scope = key.substr(0, bar), name = key.substr(bar + 1);
    const bool seen = startsWith(name, "self.") ? scope == classOf(fn) : scope.empty() || inFunction(fn, scope);
    if (seen && readsName(name))
      best = t;
  }
  return best;
}

InterpreterReach::Taint InterpreterReach::mentioned(const std::string &fn, const py::Expr &e) const {
  return strongest(fn, [&](const std::string &name) { return semantic::reads(e, name); });
}

InterpreterReach::Taint InterpreterReach::mentionedAmong(const std::string &fn,
                                                         const std::vector<std::string> &read) const {
  return strongest(fn, [&](const std::string &name) {
    return std::any_of(read.begin(), read.end(),
                       [&](const std::string &n) { return n == name || startsWith(n, name + "."); });
  });
}

bool InterpreterReach::bind(const std::string &key, Taint t) {
  Taint &slot = names_[key];
  if (t.reach <= slot.reach)
    return false;
  slot = t;
  return true;
}

bool InterpreterReach::callerFrameCall(const py::Call &c) const {
  if (among(kCallerFrames, c.resolved))
    return true;
  if (auto it = returns_.find(scope_.calleeFunction(c.function, c)); it != returns_.end())
    return it->second.reach == Reach::Frame;
  if (c.resolved != "sys._getframe")
    return false;
  // sys._getframe() and sys._getframe(0) are the function's own frame; a depth the facts
  // cannot read is taken as what it usually is, a caller.
  const py::Argument *depth = c.positionalArg(0);
  if (!depth)
    depth = c.keywordArg("depth");
  return depth && (!depth->value.number || *depth->value.number >= 1);
}

bool InterpreterReach::callerChain(const py::FrameAttribute &fa) const {
  if (fa.resolved.find(".f_back") != std::string::npos)
    return true;
  for (const py::Call &c : py_.calls)
    if (c.function == fa.function && overlaps(c.lines, fa.lines) && startsWith(fa.resolved, c.resolved + "(") &&
        callerFrameCall(c))
      return true;
  return lookup(fa.function, semantic::storageRoot(fa.object)).reach == Reach::Frame;
}

InterpreterReach::Taint InterpreterReach::frameReach(const std::string &fn, const py::Expr &e) const {
  for (const py::Call &c : py_.calls)
    if (c.function == fn && contains(e.lines, c.lines) && callerFrameCall(c))
      return {Reach::Frame, -1, e.lines};
  for (const py::FrameAttribute &fa : py_.frameAttributes)
    if (fa.function == fn && contains(e.lines, fa.lines) && fa.attribute == "f_back")
      return {Reach::Frame, -1, e.lines};
  Taint t = mentioned(fn, e);
  return t.reach == Reach::Frame ? t : Taint{};
}

/// Frames first: whether a namespace read is a caller's depends on them, and on nothing else.
void InterpreterReach::bindFrames() {
  for (bool changed = true; changed;) {
    changed = false;
    for (const py::Assignment &a : py_.assignments)
      if (a.kind == py::Assignment::TargetKind::Name || a.kind == py::Assignment::TargetKind::SelfAttribute)
        if (Taint t = frameReach(a.function, a.value); t.reach == Reach::Frame)
          changed |= bind(keyFor(a.function, a.target), t);
    for (const py::LoopBinding &l : py_.loops)
      if (Taint t = frameReach(l.function, l.iterable); t.reach == Reach::Frame)
        for (const std::string &name : l.targets)
          changed |= bind(keyFor(l.function, name), t);
    for (const py::Return &r : py_.returns)
      if (!r.function.empty() && frameReach(r.function, r.value).reach == Reach::Frame &&
          returns_[r.function].reach == Reach::None) {
        returns_[r.function] = {Reach::Frame, -1, r.lines};
        changed = true;
      }
  }
}

void InterpreterReach::findOrigins() {
  for (const py::Call &c : py_.calls) {
    if (among(kGcScans, c.resolved)) {
      scanOrigin_[&c] = static_cast<int>(origins_.size());
      origins_.push_back({c.resolved + "()", c.function, c.lines, false, {}, {}, {}});
    }
    if (lastSegment(c.resolved) == "PyFrame_LocalsToFast")
      writes_.push_back(
          {"`" + c.resolved + "()`", "edited frame locals are pushed back into a running frame", c.function, c.lines});
  }
  for (const py::FrameAttribute &fa : py_.frameAttributes) {
    if (!isNamespace(fa.attribute) || !callerChain(fa))
      continue;
    if (fa.written) {
      writes_.push_back({"`" + fa.resolved + "` of a calling frame",
                         "it is written, changing the caller's own variables or module globals", fa.function,
                         fa.lines});
      continue;
    }
    namespaceOrigin_[&fa] = static_cast<int>(origins_.size());
    origins_.push_back({fa.resolved, fa.function, fa.lines, false, {}, {}, {}});
  }
}

InterpreterReach::Taint InterpreterReach::valueReach(const std::string &fn, const py::Expr &e) const {
  Taint best;
  const auto take = [&](Taint t) {
    if (t.reach > best.reach && t.reach >= Reach::Data)
      best = t;
  };
  for (const py::Call &c : py_.calls) {
    if (c.function != fn || !contains(e.lines, c.lines))
      continue;
    if (auto it = scanOrigin_.find(&c); it != scanOrigin_.end())
      take({Reach::Object, it->second, e.lines});
    if (auto it = returns_.find(scope_.calleeFunction(fn, c)); it != returns_.end())
      take(it->second);
  }
  for (const py::FrameAttribute &fa : py_.frameAttributes)
    if (auto it = namespaceOrigin_.find(&fa);
        it != namespaceOrigin_.end() && fa.function == fn && contains(e.lines, fa.lines))
      take({Reach::Object, it->second, e.lines});
  take(mentioned(fn, e));
  // A found object stays itself through names, items, attributes, containers and the
  // helpers that return it; anything computed from it (a clone, arithmetic, a library call)
  // is a new value that only carries its data.
  bool keeps =
      e.kind != py::ExprKind::BinaryOp && e.kind != py::ExprKind::UnaryOp && e.kind != py::ExprKind::Comparison;
  if (e.kind == py::ExprKind::Call)
    keeps = among(kKeepIdentity, e.resolved) || among(kItemAccess, lastSegment(e.resolved)) ||
            among(kGcScans, e.resolved) || returns_.count(scope_.calleeFunction(fn, e.resolved));
  if (best.reach == Reach::Object && !keeps)
    best.reach = Reach::Data;
  best.at = e.lines;
  return best;
}

void InterpreterReach::bindValues() {
  using TK = py::Assignment::TargetKind;
  for (unsigned round = 0; round < 32; ++round) {
    bool changed = false;
    for (const py::Assignment &a : py_.assignments) {
      const Taint t = valueReach(a.function, a.value);
      if (t.reach < Reach::Data)
        continue;
      if (a.kind == TK::Name || a.kind == TK::SelfAttribute)
        changed |= bind(keyFor(a.function, a.target), t);
      else if (a.kind == TK::Subscript || a.kind == TK::Attribute) // `out[:] = found`: out now holds its data
        changed |= bind(keyFor(a.function, semantic::storageRoot(a.target)), {Reach::Data, t.origin, a.lines});
    }
    for (const py::LoopBinding &l : py_.loops)
      if (Taint t = valueReach(l.function, l.iterable); t.reach >= Reach::Data)
        for (const std::string &name : l.targets)
          changed |= bind(keyFor(l.function, name), t);
    // `out.copy_(found)`, `torch.add(a, found, out=buf)`: the written object holds found data.
    for (const py::Call &c : py_.calls) {
      const py::Argument *out = c.keywordArg("out");
      if (!inPlace(c) && !out)
        continue;
      Taint src;
      for (const py::Argument &arg : c.args)
        if (&arg != out)
          if (Taint t = valueReach(c.function, arg.value); t.reach > src.reach)
            src = t;
      const std::string target = out ? semantic::storageRoot(out->value) : semantic::storageRoot(c.receiver);
      if (src.reach >= Reach::Data && !target.empty())
        changed |= bind(keyFor(c.function, target), {Reach::Data, src.origin, c.lines});
    }
    for (const py::Return &r : py_.returns)
      if (!r.function.empty())
        if (Taint t = valueReach(r.function, r.value); t.reach > returns_[r.function].reach) {
          returns_[r.function] = t;
          changed = true;
        }
    if (!changed)
      break;
  }
}

void InterpreterReach::harm(const Taint &t, std::string what, const std::string &fn, LineRange lines) {
  if (t.origin < 0)
    return;
  Origin &o = origins_[static_cast<std::size_t>(t.origin)];
  // A harm on the graded path outranks one elsewhere.
  if (!o.harm.empty() && (!scope_.graded(fn, lines) || scope_.graded(o.harmFunction, o.harmLines)))
    return;
  o.harm = std::move(what);
  o.harmFunction = fn;
  o.harmLines = lines;
}

void InterpreterReach::findHarm() {
  using TK = py::Assignment::TargetKind;
  // Found objects changed in place: the grader's tensors, namespaces or checker state.
  for (const py::Assignment &a : py_.assignments)
    if (a.kind == TK::Subscript || a.kind == TK::Attribute)
      if (Taint t = lookup(a.function, semantic::storageRoot(a.target)); t.reach == Reach::Object)
        harm(t, "`" + a.target + "` is assigned (" + lineText(a.lines) + ")", a.function, a.lines);
  for (const py::Call &c : py_.calls) {
    if (!inPlace(c) && !c.keywordArg("out"))
      continue;
    const py::Argument *out = c.keywordArg("out");
    const std::string target = out ? semantic::quote(out->value) : c.receiver;
    Taint t = lookup(c.function, out ? semantic::storageRoot(out->value) : semantic::storageRoot(c.receiver));
    // `frame.f_back.f_locals["ref"].copy_(x)`: the receiver is kept only as written.
    const auto through = [&](const std::string &attribute) {
      return out ? semantic::readsSegment(out->value, attribute)
                 : c.receiver.find("." + attribute) != std::string::npos;
    };
    for (const py::FrameAttribute &fa : py_.frameAttributes)
      if (auto it = namespaceOrigin_.find(&fa); it != namespaceOrigin_.end() && fa.function == c.function &&
                                                overlaps(fa.lines, c.lines) && through(fa.attribute))
        t = {Reach::Object, it->second, c.lines};
    if (t.reach == Reach::Object)
      harm(t, "`" + target + "` is changed in place by " + c.method + "() (" + lineText(c.lines) + ")", c.function,
           c.lines);
  }
  // Found values handed to the grader as the entry point's result.
  for (const std::string &entry : facts_.kernels.entryPoints) {
    for (const py::Return &r : py_.returns)
      if (r.function == entry)
        if (Taint t = valueReach(entry, r.value); t.reach >= Reach::Data)
          harm(t, "what it finds is returned by " + entry + " (" + lineText(r.lines) + ")", entry, r.lines);
    if (const py::Function *fn = py_.findFunction(entry))
      for (const std::string &p : fn->params)
        if (Taint t = lookup(entry, p); p != "self" && t.reach >= Reach::Data)
          harm(t, "what it finds is written into " + entry + "'s `" + p + "` (" + lineText(t.at) + ")", entry, t.at);
  }
}

bool InterpreterReach::onlyLogs(const py::Branch &b) const {
  for (const py::Call *c : callsIn(py_, b.function, b.body))
    if (!contains(b.lines, c->lines) && !isLoggingCall(c->resolved) && !measures(*c))
      return false;
  for (const py::Assignment &a : py_.assignments)
    if (inFunction(a.function, b.function) && contains(b.body, a.lines) && !contains(b.lines, a.lines))
      return false;
  for (const py::Return &r : py_.returns)
    if (inFunction(r.function, b.function) && contains(b.body, r.lines))
      return false;
  return true;
}

void InterpreterReach::findUses() {
  const auto use = [&](Taint t) {
    if (t.reach >= Reach::Data && t.origin >= 0)
      origins_[static_cast<std::size_t>(t.origin)].used = true;
  };
  for (Origin &o : origins_)
    o.used = !o.harm.empty();
  for (const py::Return &r : py_.returns)
    use(valueReach(r.function, r.value));
  for (const py::Branch &b : py_.branches)
    if (!onlyLogs(b))
      use(mentionedAmong(b.function, b.names));
  for (const py::Call &c : py_.calls) {
    if (isLoggingCall(c.resolved) || measures(c) || scanOrigin_.count(&c))
      continue;
    use(lookup(c.function, semantic::storageRoot(c.receiver)));
    for (const py::Argument &arg : c.args)
      use(mentioned(c.function, arg.value));
  }
  // A scan or namespace read consumed in place, not bound to a name: used unless a log call
  // (or a count inside one) is all that consumes it.
  const auto bound = [&](const std::string &fn, LineRange at) {
    for (const py::Assignment &a : py_.assignments)
      if (a.function == fn && contains(a.value.lines, at))
        return true;
    for (const py::LoopBinding &l : py_.loops)
      if (l.function == fn && contains(l.iterable.lines, at))
        return true;
    for (const py::Call &c : py_.calls)
      if (c.function == fn && contains(c.lines, at) && isLoggingCall(c.resolved))
        return true;
    return false;
  };
  for (Origin &o : origins_)
    if (!o.used && !bound(o.function, o.lines))
      o.used = true;
}

} // namespace kbaudit::semantic::interp
