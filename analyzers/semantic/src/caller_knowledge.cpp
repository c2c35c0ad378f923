#include "kbaudit/semantic/caller_knowledge.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>
#include <set>

namespace kbaudit::semantic {

using namespace pytext;
using namespace scope;

namespace {

// Frame and command-line introspection. Exception formatting (traceback.print_exc,
// format_exc) and introspection of one's own code (inspect.signature, getsource) are not here.
constexpr std::array<std::string_view, 14> kFrameSources = {
    "inspect.stack",           "inspect.currentframe",   "inspect.getouterframes", "inspect.getinnerframes",
    "inspect.getframeinfo",    "inspect.trace",          "sys._getframe",          "sys._current_frames",
    "traceback.extract_stack", "traceback.format_stack", "traceback.walk_stack",   "traceback.print_stack",
    "traceback.StackSummary",  "sys.orig_argv"};

// Words that name the grading phase (or the grader's files) in strings and environment names.
constexpr std::array<std::string_view, 13> kGraderWords = {"bench",   "check", "timeit", "timing",  "grade",
                                                           "grading", "eval",  "pytest", "harness", "correct",
                                                           "verify",  "judge", "profil"};

bool isFrameSource(std::string_view r) {
  // Every name below starts `sys.`, `__main__`, `inspect.` or `traceback.`: any other name is one
  // only through "cmdline" (asked of every call and name of the file).
  if (r.empty() || (r[0] != 's' && r[0] != '_' && r[0] != 'i' && r[0] != 't'))
    return r.find("cmdline") != std::string_view::npos;
  if (r == "sys.argv" || startsWith(r, "sys.argv.") || startsWith(r, "sys.argv[") || r == "__main__" ||
      startsWith(r, "__main__."))
    return true;
  if (r.find("cmdline") != std::string_view::npos)
    return true;
  // `s` itself or a member of it (`s.` begins `r`), without building `s + "."` per name.
  return std::any_of(kFrameSources.begin(), kFrameSources.end(), [&](std::string_view s) {
    return startsWith(r, s) && (r.size() == s.size() || r[s.size()] == '.');
  });
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

} // namespace

bool hasGraderWord(std::string_view s) {
  const std::string l = lower(s);
  return std::any_of(kGraderWords.begin(), kGraderWords.end(),
                     [&](std::string_view w) { return l.find(w) != std::string::npos; });
}

CallerKnowledge::CallerKnowledge(const Facts &facts) : facts_(facts), py_(facts.python), scope_(facts) {
  const auto inspects = [](std::string_view r) { return isFrameSource(r) || isSysModules(r) || isEnvAccess(r); };
  for (const py::Call &c : py_.calls)
    if (inspects(c.resolved))
      sites_.push_back({c.function, c.lines});
  for (const py::NameRef &n : py_.nameRefs)
    if (inspects(n.resolved))
      sites_.push_back({n.function, n.lines});
  for (const py::StringConstant &str : py_.strings)
    if (!str.docstring && str.value.value.find("/proc/") != std::string::npos)
      sites_.push_back({str.function, str.lines});
  for (const py::Call &c : py_.calls)
    callsBy_[c.function].push_back(&c);
  for (const py::Function &fn : py_.functions)
    if (CallerSniff s = sniffIn(fn.qualname, fn.lines, /*nested=*/true))
      helpers_[fn.qualname] = s;
  propagate();
}

const CallerSniff *CallerKnowledge::helper(const std::string &qualname) const {
  auto it = helpers_.find(qualname);
  return it == helpers_.end() ? nullptr : &it->second;
}

CallerSniff CallerKnowledge::nameAmong(std::string_view function, const std::vector<std::string> &names) const {
  return named(tainted_.readAmong(function, names));
}

/// Caller inspection inside `lines` of `fn` (nested defs included when `nested`).
CallerSniff CallerKnowledge::sniffIn(std::string_view fn, LineRange lines, bool nested) const {
  const auto here = [&](std::string_view f, LineRange l) {
    return (nested ? inFunction(f, fn) : f == fn) && contains(lines, l);
  };
  if (std::none_of(sites_.begin(), sites_.end(), [&](const Site &site) { return here(site.function, site.lines); }))
    return {}; // every answer below starts from one of these sites
  CallerSniff s;
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
void CallerKnowledge::propagate() {
  const std::set<std::string> entries(facts_.kernels.entryPoints.begin(), facts_.kernels.entryPoints.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (const py::Assignment &a : py_.assignments) {
      using TK = py::Assignment::TargetKind;
      if (a.kind != TK::Name && a.kind != TK::SelfAttribute)
        continue;
      if (!tainted_.empty() && tainted_.find(a.function, a.target))
        continue;
      CallerSniff s = sniffIn(a.function, a.lines, false);
      if (!s)
        s = readsTaint(a.function, a.lines, &a.value);
      if (s && tainted_.bind(a.function, a.target, s))
        changed = true;
    }
    for (const py::Function &fn : py_.functions) {
      if (helpers_.count(fn.qualname) || entries.count(fn.qualname))
        continue;
      if (CallerSniff s = readsTaint(fn.qualname, fn.lines, nullptr, true)) {
        helpers_[fn.qualname] = s;
        changed = true;
      }
    }
  }
}

/// The stretch calls a caller-dependent helper or reads a caller-dependent name.
CallerSniff CallerKnowledge::readsTaint(std::string_view fn, LineRange lines, const py::Expr *value,
                                        bool nested) const {
  // The first call of the stretch (in file order) to a caller-dependent helper; while there is
  // no such helper (most files) there is nothing to look for.
  if (!helpers_.empty()) {
    CallerSniff s;
    const auto callsHelper = [&](const py::Call &c) {
      if (!contains(lines, c.lines))
        return false;
      const std::string callee = scope_.calleeFunction(c.function, c);
      const auto it = helpers_.find(callee);
      if (it == helpers_.end() || callee == fn)
        return false;
      s = it->second;
      s.how = callee + "() (" + s.how + ")";
      s.helpers.push_back(callee);
      return true;
    };
    if (nested) {
      for (const py::Call &c : py_.calls)
        if (inFunction(c.function, fn) && callsHelper(c))
          return s;
    } else if (const auto own = callsBy_.find(fn); own != callsBy_.end()) {
      for (const py::Call *c : own->second)
        if (callsHelper(*c))
          return s;
    }
  }
  return value ? named(tainted_.readBy(fn, *value)) : CallerSniff{};
}

/// What a followed name carries, told through the name.
CallerSniff CallerKnowledge::named(const ScopedNames<CallerSniff>::Entry *entry) {
  if (!entry)
    return {};
  CallerSniff out = entry->second;
  out.how = entry->first.second + " (" + out.how + ")";
  return out;
}

} // namespace kbaudit::semantic
