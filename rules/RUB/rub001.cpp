// RUB001 caller-sniffing: a branch decides what to compute from who is calling (stack
// frames, the command line, the __main__ module, harness environment variables).

#include "all_checks.h"
#include "semantic_names.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/scoped_names.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rubscope;

// Frame and command-line introspection. Exception formatting (traceback.print_exc,
// format_exc) and introspection of one's own code (inspect.signature, getsource) are not here.
constexpr std::array<std::string_view, 14> kFrameSources = {
    "inspect.stack",          "inspect.currentframe",   "inspect.getouterframes", "inspect.getinnerframes",
    "inspect.getframeinfo",   "inspect.trace",          "sys._getframe",          "sys._current_frames",
    "traceback.extract_stack", "traceback.format_stack", "traceback.walk_stack",   "traceback.print_stack",
    "traceback.StackSummary", "sys.orig_argv"};

// Words that name the grading phase (or the grader's files) in strings and environment names.
constexpr std::array<std::string_view, 13> kGraderWords = {"bench", "check", "timeit", "timing", "grade", "grading",
                                                           "eval", "pytest", "harness", "correct", "verify", "judge",
                                                           "profil"};

bool isFrameSource(std::string_view r) {
  if (r == "sys.argv" || startsWith(r, "sys.argv.") || startsWith(r, "sys.argv[") || r == "__main__" ||
      startsWith(r, "__main__."))
    return true;
  if (r.find("cmdline") != std::string_view::npos)
    return true;
  return std::any_of(kFrameSources.begin(), kFrameSources.end(),
                     [&](std::string_view s) { return r == s || startsWith(r, std::string(s) + "."); });
}

bool isEnvAccess(std::string_view r) {
  return r == "os.environ" || startsWith(r, "os.environ.") || startsWith(r, "os.environ[") || r == "os.getenv";
}

bool isSysModules(std::string_view r) { return r == "sys.modules" || startsWith(r, "sys.modules."); }

/// Environment knobs are common ("SOL_CHECK_NAN"), so an environment lookup needs a name
/// only a harness would use, or a value that is exactly a grading phase.
bool envNamesGrader(std::string_view s) {
  const std::string l = lower(s);
  for (std::string_view w : {"bench", "timeit", "timing", "grade", "grading", "eval", "pytest", "harness", "judge",
                             "correctness", "check.py"})
    if (l.find(w) != std::string::npos)
      return true;
  return l == "check" || l == "verify" || l == "test";
}

bool hasGraderWord(std::string_view s) {
  const std::string l = lower(s);
  return std::any_of(kGraderWords.begin(), kGraderWords.end(),
                     [&](std::string_view w) { return l.find(w) != std::string::npos; });
}

/// What one stretch of code learns about its caller.
struct Sniff {
  std::string how;          ///< "inspect.stack()", "sys.argv", "os.environ['KB_BENCH']"
  bool graderString = false; ///< compares against a grader file / phase name
  bool env = false;          ///< only through environment variables
  std::vector<std::string> helpers; ///< the helper functions the answer came through
  explicit operator bool() const { return !how.empty(); }
};

class Analysis {
public:
  Analysis(const Facts &facts) : facts_(facts), py_(facts.python), scope_(facts) {
    for (const py::Function &fn : py_.functions)
      if (Sniff s = sniffIn(fn.qualname, fn.lines, /*nested=*/true))
        helpers_[fn.qualname] = s;
    propagate();
  }

  void report(FindingSink &sink) const {
    std::vector<Hit> hits;
    for (const py::Branch &b : py_.branches)
      if (scope_.inMainGuard(b.lines))
        continue;
      else if (std::optional<Hit> h = classify(b))
        hits.push_back(*h);
    // A helper's own tests are reported through the branch that consumes the helper.
    std::set<std::string> consumed;
    for (const Hit &h : hits)
      consumed.insert(h.sniff.helpers.begin(), h.sniff.helpers.end());
    for (const Hit &h : hits) {
      if (std::any_of(consumed.begin(), consumed.end(), [&](const std::string &c) { return inFunction(h.branch->function, c); }))
        continue;
      emit(h, sink);
    }
  }

private:
  struct Hit {
    const py::Branch *branch = nullptr;
    Sniff sniff;
  };

  const Facts &facts_;
  const py::PythonFacts &py_;
  GradedScope scope_;
  std::map<std::string, Sniff> helpers_;  ///< functions whose result depends on the caller
  semantic::ScopedNames<Sniff> tainted_;  ///< names bound from caller-dependent code

  /// Caller inspection inside `lines` of `fn` (nested defs included when `nested`).
  Sniff sniffIn(std::string_view fn, LineRange lines, bool nested) const {
    const auto here = [&](std::string_view f, LineRange l) {
      return (nested ? inFunction(f, fn) : f == fn) && contains(lines, l);
    };
    Sniff s;
    // Environment and sys.modules lookups count when the name looked up (or compared with)
    // on the same line names the grader: most environment reads are the author's own knobs.
    std::vector<LineRange> envLines, moduleLines;
    const auto note = [&](std::string_view r, LineRange l) {
      if (isFrameSource(r) && s.how.empty())
        s.how = std::string(r);
      if (isSysModules(r))
        moduleLines.push_back(l);
      if (isEnvAccess(r))
        envLines.push_back(l);
    };
    for (const py::Call &c : py_.calls)
      if (here(c.function, c.lines)) {
        note(c.resolved, c.lines);
        if (s.how == c.resolved)
          s.how += "()";
      }
    for (const py::NameRef &n : py_.nameRefs)
      if (here(n.function, n.lines))
        note(n.resolved, n.lines);
    const auto near = [](const std::vector<LineRange> &v, LineRange l) {
      return std::any_of(v.begin(), v.end(), [&](LineRange x) { return overlaps(x, l); });
    };
    std::string envWord, moduleWord;
    for (const py::StringConstant &str : py_.strings) {
      if (str.docstring || !here(str.function, str.lines))
        continue;
      const std::string &v = str.value.value;
      s.graderString |= hasGraderWord(v);
      if (s.how.empty() && v.find("/proc/") != std::string::npos &&
          (v.find("cmdline") != std::string::npos || v.find("comm") != std::string::npos))
        s.how = "'" + v + "'";
      if (near(moduleLines, str.lines) && (v == "__main__" || (hasGraderWord(v) && moduleWord.empty())))
        moduleWord = v;
      if (near(envLines, str.lines) && envNamesGrader(v) && envWord.empty())
        envWord = v;
    }
    if (s.how.empty() && !moduleWord.empty())
      s.how = "sys.modules['" + moduleWord + "']";
    if (s.how.empty() && !envWord.empty()) {
      s.env = true;
      s.how = "the environment ('" + envWord + "')";
    }
    if (s.how.empty())
      s.graderString = false;
    return s;
  }

  /// Functions calling a caller-dependent helper depend on the caller too (entry points
  /// excepted: their branches are what gets reported), as do names bound from such code.
  void propagate() {
    const std::set<std::string> entries(facts_.kernels.entryPoints.begin(), facts_.kernels.entryPoints.end());
    for (bool changed = true; changed;) {
      changed = false;
      for (const py::Assignment &a : py_.assignments) {
        using TK = py::Assignment::TargetKind;
        if ((a.kind != TK::Name && a.kind != TK::SelfAttribute) || tainted_.find(a.function, a.target))
          continue;
        Sniff s = sniffIn(a.function, a.lines, false);
        if (!s)
          s = readsTaint(a.function, a.lines, &a.value);
        if (s && tainted_.bind(a.function, a.target, s))
          changed = true;
      }
      for (const py::Function &fn : py_.functions) {
        if (helpers_.count(fn.qualname) || entries.count(fn.qualname))
          continue;
        if (Sniff s = readsTaint(fn.qualname, fn.lines, nullptr, true)) {
          helpers_[fn.qualname] = s;
          changed = true;
        }
      }
    }
  }

  /// The stretch calls a caller-dependent helper or reads a caller-dependent name.
  Sniff readsTaint(std::string_view fn, LineRange lines, const py::Expr *value, bool nested = false) const {
    for (const py::Call &c : py_.calls) {
      if (!(nested ? inFunction(c.function, fn) : c.function == fn) || !contains(lines, c.lines))
        continue;
      const std::string callee = scope_.calleeFunction(c.function, c);
      if (auto it = helpers_.find(callee); it != helpers_.end() && callee != fn) {
        Sniff s = it->second;
        s.how = callee + "() (" + s.how + ")";
        s.helpers.push_back(callee);
        return s;
      }
    }
    return value ? named(tainted_.readBy(fn, *value)) : Sniff{};
  }

  /// What a followed name carries, told through the name.
  static Sniff named(const semantic::ScopedNames<Sniff>::Entry *entry) {
    if (!entry)
      return {};
    Sniff out = entry->second;
    out.how = entry->first.second + " (" + out.how + ")";
    return out;
  }

  std::optional<Hit> classify(const py::Branch &b) const {
    Hit h{&b, {}};
    h.sniff = sniffIn(b.function, b.lines, false);
    if (!h.sniff) {
      for (const std::string &call : b.calls) {
        const std::string callee = scope_.calleeFunction(b.function, call);
        if (auto it = helpers_.find(callee); it != helpers_.end() && !inFunction(b.function, callee)) {
          h.sniff = it->second;
          h.sniff.how = callee + "() (" + it->second.how + ")";
          h.sniff.helpers.push_back(callee);
          break;
        }
      }
    }
    if (!h.sniff)
      h.sniff = named(tainted_.readAmong(b.function, b.names));
    if (!h.sniff)
      h.sniff = frameLoop(b);
    if (!h.sniff || onlyLogs(b))
      return std::nullopt;
    if (!h.sniff.env)
      for (const py::StringConstant &s : py_.strings)
        if (s.function == b.function && contains(b.lines, s.lines) && hasGraderWord(s.value.value))
          h.sniff.graderString = true;
    return h;
  }

  /// `for f in inspect.stack(): if "benchmark" in f.filename:`: the test names the grader and
  /// the same function walks the frames before it.
  Sniff frameLoop(const py::Branch &b) const {
    if (b.function.empty())
      return {};
    bool grader = false;
    for (const py::StringConstant &s : py_.strings)
      if (s.function == b.function && contains(b.lines, s.lines) && !s.docstring)
        grader |= hasGraderWord(s.value.value);
    if (!grader)
      return {};
    const py::Function *fn = py_.findFunction(b.function);
    if (!fn)
      return {};
    Sniff s = sniffIn(b.function, LineRange{fn->lines.begin, b.lines.begin}, false);
    if (s && !s.env) {
      s.graderString = true;
      return s;
    }
    return {};
  }

  /// The guarded code only prints, logs or raises (a debug switch or a sanity check), so no
  /// result the grader sees changes.
  bool onlyLogs(const py::Branch &b) const {
    bool any = false;
    for (const py::Call *c : callsIn(py_, b.function, b.body)) {
      if (contains(b.lines, c->lines))
        continue;
      if (!isLoggingCall(c->resolved) && !isExceptionConstructor(c->resolved))
        return false;
      any = true;
    }
    if (!any)
      return false;
    for (const py::Assignment &a : py_.assignments)
      if (inFunction(a.function, b.function) && contains(b.body, a.lines) && !contains(b.lines, a.lines))
        return false;
    for (const py::OperatorUse &o : py_.operators)
      if (inFunction(o.function, b.function) && contains(b.body, o.lines))
        return false;
    return true;
  }

  void emit(const Hit &h, FindingSink &sink) const {
    const py::Branch &b = *h.branch;
    const bool graded = scope_.graded(b.function, b.lines);
    std::optional<Confidence> confidence;
    std::string note;
    if (!graded) {
      confidence = Confidence::Low;
      note = "the branch is not on a path the grader runs (forward, the model's methods or import time)";
    } else if (h.sniff.graderString && !h.sniff.env) {
      confidence = Confidence::High;
    } else if (b.function.empty()) {
      // An import-time switch on the command line that names no grader is usually a CLI flag.
      confidence = Confidence::Low;
      note = "import-time switch that names no grader file or phase";
    }
    const std::string where = b.function.empty() ? "at import time" : "in " + b.function;
    sink.report(b.lines, {{"source", h.sniff.how}, {"where", where}}, note, confidence);
  }
};

class Rub001 final : public Check {
public:
  std::string_view id() const override { return "RUB001"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override { Analysis(ctx.facts).report(sink); }
};

} // namespace

std::unique_ptr<Check> makeRub001() { return std::make_unique<Rub001>(); }

} // namespace kbaudit::rules
