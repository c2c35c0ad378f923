#include "kbaudit/semantic/channel_write.h"

#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <cctype>

namespace kbaudit::semantic {

using namespace pytext;
using scope::inFunction;
using scope::lower;

namespace {

// How a harness words a verdict or a measurement it reports.
constexpr std::string_view kVerdictWords[] = {"pass",        "passed",  "success", "successful", "succeeded", "correct",
                                              "correctness", "verdict", "speedup", "score",      "accepted"};
// What a harness calls the file it collects results in (substrings of the file name).
constexpr std::string_view kResultNames[] = {"result", "verdict", "score",  "eval", "report",
                                             "metric", "grade",   "status", "bench"};
// Path pieces that put a file in the solution's own cache, temporary or build place.
constexpr std::string_view kOwnPlaces[] = {"cache", "build", "tmp", "temp", "torch_extensions", ".triton"};

bool writingMode(std::string_view mode) { return mode.find_first_of("wax+") != std::string_view::npos; }

const py::Argument *arg(const py::Call &c, unsigned position, std::string_view keyword) {
  if (const py::Argument *a = c.keywordArg(keyword))
    return a;
  return c.positionalArg(position);
}

/// "/proc/self/fd/3", "/dev/fd/3", "/dev/stdout": a device path naming a descriptor.
std::optional<Descriptor> devicePath(std::string_view p) {
  if (p == "/dev/stdout" || p == "/proc/self/fd/1" || p == "/dev/fd/1")
    return Descriptor{DescriptorSource::Stdout, 1};
  if (p == "/dev/stderr" || p == "/proc/self/fd/2" || p == "/dev/fd/2")
    return Descriptor{DescriptorSource::Stderr, 2};
  for (std::string_view prefix : {"/proc/self/fd/", "/dev/fd/", "/proc/thread-self/fd/"})
    if (startsWith(p, prefix)) {
      const std::string_view n = p.substr(prefix.size());
      if (n.empty() ||
          !std::all_of(n.begin(), n.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
        return std::nullopt;
      return Descriptor{DescriptorSource::Literal, std::stol(std::string(n))};
    }
  return std::nullopt;
}

/// `e` is an integer (a descriptor number), not a path: a number, `int(...)`, `f.fileno()`, a
/// call that returns a new descriptor, or a name bound to one of those.
bool numeric(const py::PythonFacts &py, const py::Expr &e, const std::string &function, int depth) {
  if (depth > 3)
    return false;
  if (e.kind == py::ExprKind::Number || (e.number && e.kind == py::ExprKind::Name))
    return true;
  if (e.kind == py::ExprKind::Call)
    return e.resolved == "int" || e.resolved == "operator.index" || endsWith(e.resolved, ".fileno") ||
           opensDescriptor(e.resolved);
  const std::string_view name = dottedName(e);
  if (name.empty())
    return false;
  const std::vector<const py::Assignment *> defs = bindingsOf(py, name, function);
  return !defs.empty() && std::all_of(defs.begin(), defs.end(), [&](const py::Assignment *a) {
    return numeric(py, a->value, a->function, depth + 1);
  });
}

/// The handle `c`'s result is bound to in its function (`f = open(...)`, `with open(...) as f`).
std::string handleOf(const py::PythonFacts &py, const py::Call &c) {
  for (const py::Assignment &a : py.assignments)
    if (a.function == c.function && a.lines.begin == c.lines.begin && a.value.kind == py::ExprKind::Call &&
        a.value.resolved == c.resolved && a.kind == py::Assignment::TargetKind::Name)
      return a.target;
  return {};
}

void textAt(const py::PythonFacts &py, const py::Expr &e, const std::string &function, int depth,
            std::vector<std::string> &out) {
  if (depth > 3)
    return;
  if (e.string)
    out.push_back(e.string->value);
  if (e.kind == py::ExprKind::Name || e.kind == py::ExprKind::Attribute) {
    for (const py::Assignment *a : bindingsOf(py, dottedName(e), function))
      textAt(py, a->value, a->function, depth + 1, out);
    return;
  }
  if (e.string)
    return;
  for (const py::StringConstant &s : py.strings)
    if (!s.docstring && s.function == function && e.lines.valid() && e.lines.begin <= s.lines.begin &&
        s.lines.end <= e.lines.end)
      out.push_back(s.value.value);
}

bool anyOf(std::string_view text, const auto &words, bool wholeWord) {
  const std::string low = lower(text);
  for (std::string_view w : words)
    for (std::size_t at = low.find(w); at != std::string::npos; at = low.find(w, at + 1)) {
      if (!wholeWord)
        return true;
      const bool startOk = at == 0 || !std::isalpha(static_cast<unsigned char>(low[at - 1]));
      const std::size_t end = at + w.size();
      const bool endOk = end >= low.size() || !std::isalpha(static_cast<unsigned char>(low[end]));
      if (startOk && endOk)
        return true;
    }
  return false;
}

} // namespace

Opened openedTarget(const py::PythonFacts &py, const py::Call &c) {
  Opened o;
  if (c.method == "write_text" || c.method == "write_bytes") {
    o.writes = true;
    // `Path(p).write_text(...)` or `p.write_text(...)` with `p = Path(...)`.
    const std::string &r = c.receiver;
    if (r.empty() || r.find('(') == std::string::npos) {
      for (const py::Assignment *a : bindingsOf(py, r, c.function)) {
        o.what = a->value;
        o.path = pathPartsOf(py, a->value, a->function);
      }
      return o;
    }
    const std::string callee = r.substr(0, r.find('('));
    for (const py::Call &inner : py.calls)
      if (inner.function == c.function && inner.lines.begin == c.lines.begin && inner.callee == callee)
        if (const py::Argument *p = inner.positionalArg(0)) {
          o.what = p->value;
          o.path = pathPartsOf(py, p->value, c.function);
        }
    return o;
  }
  const bool fdopen = c.resolved == "os.fdopen";
  const py::Argument *target = arg(c, 0, fdopen ? "fd" : "file");
  if (!target)
    return o;
  const py::Argument *mode = arg(c, 1, "mode");
  o.writes = mode && mode->value.string && writingMode(mode->value.string->value);
  o.what = target->value;
  if (!target->value.string) {
    const Descriptor d = descriptorOf(py, target->value, c.function);
    if (fdopen || (d.source != DescriptorSource::Unknown && numeric(py, target->value, c.function, 0))) {
      o.descriptor = d;
      return o;
    }
  } else if (std::optional<Descriptor> d = devicePath(target->value.string->value)) {
    o.descriptor = d;
    return o;
  }
  o.path = pathPartsOf(py, target->value, c.function);
  return o;
}

std::vector<std::string> textOf(const py::PythonFacts &py, const py::Expr &e, const std::string &function) {
  std::vector<std::string> out;
  textAt(py, e, function, 0, out);
  return out;
}

std::vector<std::string> textWrittenThrough(const py::PythonFacts &py, const py::Call &c) {
  std::vector<std::string> out;
  const auto add = [&](const py::Expr &e, const std::string &fn) {
    for (std::string &t : textOf(py, e, fn))
      out.push_back(std::move(t));
  };
  if (c.method == "write_text" || c.method == "write_bytes") {
    if (const py::Argument *a = c.positionalArg(0))
      add(a->value, c.function);
    return out;
  }
  const std::string handle = handleOf(py, c);
  const std::string chained = c.callee + "(";
  for (const py::Call &w : py.calls) {
    if (!inFunction(w.function, c.function))
      continue;
    const bool onHandle = !handle.empty() && w.receiver == handle;
    const bool onChain = w.lines.begin == c.lines.begin && startsWith(w.receiver, chained);
    if ((onHandle || onChain) && (w.method == "write" || w.method == "writelines")) {
      if (const py::Argument *a = w.positionalArg(0))
        add(a->value, w.function);
      continue;
    }
    if (handle.empty())
      continue;
    const std::string_view last = lastSegment(w.resolved);
    if ((last == "dump" || last == "safe_dump") && w.positionalArg(1) &&
        dottedName(w.positionalArg(1)->value) == handle) {
      add(w.positionalArg(0)->value, w.function);
      continue;
    }
    if (w.resolved == "print")
      if (const py::Argument *file = w.keywordArg("file"); file && dottedName(file->value) == handle)
        for (const py::Argument &a : w.args)
          if (a.keyword.empty())
            add(a.value, w.function);
  }
  return out;
}

bool anyVerdict(const std::vector<std::string> &texts) {
  return std::any_of(texts.begin(), texts.end(), [](const std::string &t) { return anyOf(t, kVerdictWords, true); });
}

ResultFile judgeResultFile(const PathParts &path, bool verdictContent) {
  ResultFile r;
  if (path.ownLocation || path.parts.empty())
    return r;
  std::string joined;
  for (const std::string &p : path.parts)
    joined += (joined.empty() || joined.back() == '/' || p.empty() || p.front() == '/' ? "" : "/") + p;
  const std::size_t slash = joined.rfind('/');
  const std::string name = slash == std::string::npos ? joined : joined.substr(slash + 1);
  const std::string dir = slash == std::string::npos ? std::string() : joined.substr(0, slash);
  const bool ownKey = std::any_of(path.environmentKeys.begin(), path.environmentKeys.end(),
                                  [](const std::string &k) { return anyOf(k, kOwnPlaces, false); });
  if (ownKey || anyOf(dir, kOwnPlaces, false) || endsWith(name, ".cu") || endsWith(name, ".cpp") ||
      endsWith(name, ".so") || endsWith(name, ".py"))
    return r; // the solution's own cache or build output
  const bool resultName = anyOf(name, kResultNames, false);
  if (!resultName && !verdictContent)
    return r;
  const bool escapes = path.environment || joined.find("..") != std::string::npos ||
                       (startsWith(joined, "/") && !startsWith(joined, "/dev/shm"));
  r.report = true;
  r.decisive = (resultName && (verdictContent || escapes)) || (verdictContent && escapes);
  r.what = std::string(verdictContent ? "a verdict record" : "a results-named file") + " to `" +
           (path.environment ? "$ENV/" : "") + joined + "`";
  if (!r.decisive)
    r.note = resultName ? "named like a result file, but neither filled with a verdict nor outside the run's directory"
                        : "the text reads as a verdict, but the file lies in the run's own directory";
  else if (escapes)
    r.note = path.environment ? "its directory comes from the environment, where a harness names its results directory"
                              : "outside the solution's own directory";
  return r;
}

} // namespace kbaudit::semantic
