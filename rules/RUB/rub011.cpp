// RUB011 raw-memory-tampering: the solution writes process memory it does not own, around the
// interpreter's object model: ctypes stores at addresses taken from id(), writes into the
// function pointers of loaded libraries, the interpreter's C API mutators, /proc/<pid>/mem
// opened for writing, mprotect to make pages writable. Memory it allocated or a tensor's
// data_ptr() handed to a library is not tampering and stays quiet.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"

#include <algorithm>
#include <array>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rubscope;

/// What an address points at, as far as the facts show.
enum class Target { Unknown, Tensor, Library, Object };

constexpr std::array<std::string_view, 4> kOpen = {"open", "io.open", "builtins.open", "os.open"};
constexpr std::array<std::string_view, 5> kLoaders = {"ctypes.CDLL", "ctypes.PyDLL", "ctypes.cdll.LoadLibrary",
                                                      "ctypes.pydll.LoadLibrary", "ctypes.WinDLL"};
// Words in the names of the interpreter's C API functions that change an object in place.
constexpr std::array<std::string_view, 8> kMutatingApi = {"Set", "Del", "Modified", "Resize",
                                                          "Insert", "Append", "Clear", "DecRef"};

template <std::size_t N> bool among(const std::array<std::string_view, N> &set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

/// A typed view over an address: `c_int.from_address(a)`, `ctypes.cast(a, POINTER(T))`,
/// `c_void_p.in_dll(lib, "sym")` (a library's own variable).
bool isView(const py::Call &c) {
  return c.method == "from_address" || c.method == "in_dll" || c.resolved == "ctypes.cast";
}

class Analysis {
public:
  Analysis(const Facts &facts, FindingSink &sink) : py_(facts.python), scope_(facts), sink_(sink) {}

  void run() {
    for (const py::Call &c : py_.calls)
      call(c);
    for (const py::Assignment &a : py_.assignments)
      store(a);
    for (const py::Call &c : py_.calls) // views and copies read but never written: review
      if ((isView(c) || c.resolved == "ctypes.string_at") && !reported_.count(c.lines.begin))
        if (const Target t = viewTarget(c); t == Target::Object)
          report(c.function, c.lines, "`" + c.resolved + "(...)`", "reads the memory of a Python object found by id()",
                 false);
  }

private:
  const py::PythonFacts &py_;
  GradedScope scope_;
  FindingSink &sink_;
  std::set<unsigned> reported_;

  void report(const std::string &fn, LineRange lines, std::string operation, std::string effect, bool decisive) {
    reported_.insert(lines.begin);
    const bool graded = scope_.graded(fn, lines);
    if (!graded && !decisive)
      return;
    std::string note;
    if (!graded)
      note = "not on a path the grader runs (the entry point's reach or import time)";
    sink_.report(lines, {{"operation", std::move(operation)}, {"effect", std::move(effect)}}, note,
                 decisive && graded ? Confidence::High : Confidence::Low);
  }

  /// A name bound (in `fn` or at module level) to a loaded library or the interpreter's API.
  bool libraryHandle(const std::string &fn, std::string_view expr) const {
    const std::string root = semantic::storageRoot(expr);
    if (startsWith(expr, "ctypes.pythonapi") || startsWith(expr, "ctypes.cdll.") || startsWith(expr, "ctypes.CDLL("))
      return true;
    for (const py::Assignment &a : py_.assignments)
      if (a.kind == py::Assignment::TargetKind::Name && a.target == root && (a.function == fn || a.function.empty()))
        if (among(kLoaders, a.value.resolved) || startsWith(a.value.resolved, "ctypes.pythonapi"))
          return true;
    return false;
  }

  /// Where the value of `e` (an address) comes from: id() of an object, a library symbol,
  /// a tensor's data_ptr(), or something else; names bound to such values are followed.
  Target addressOf(const std::string &fn, const py::Expr &e, unsigned depth = 0) const {
    Target best = Target::Unknown;
    for (const py::Call &c : py_.calls) {
      if (c.function != fn || !contains(e.lines, c.lines))
        continue;
      if (c.resolved == "id")
        return Target::Object;
      if (c.method == "data_ptr")
        best = std::max(best, Target::Tensor);
      if (c.method == "in_dll" || c.method == "dlsym")
        best = std::max(best, Target::Library);
      if (c.resolved == "ctypes.cast" || c.resolved == "ctypes.addressof")
        if (const py::Argument *a = c.positionalArg(0); a && libraryHandle(fn, a->value.resolved))
          best = std::max(best, Target::Library);
    }
    if (depth < 4)
      for (const py::Assignment &a : py_.assignments)
        if (a.kind == py::Assignment::TargetKind::Name && (a.function == fn || a.function.empty()) &&
            !contains(a.lines, e.lines) && semantic::reads(e, a.target))
          best = std::max(best, addressOf(a.function, a.value, depth + 1));
    return best;
  }

  Target viewTarget(const py::Call &c) const {
    if (c.method == "in_dll")
      return Target::Library;
    const py::Argument *a = c.positionalArg(0);
    return a ? addressOf(c.function, a->value) : Target::Unknown;
  }

  static std::string targetWords(Target t) {
    return t == Target::Object ? "the memory of a Python object found by id()"
                               : "a function pointer or variable of a loaded library";
  }

  void call(const py::Call &c) {
    if (c.resolved == "ctypes.memmove" || c.resolved == "ctypes.memset") {
      if (const py::Argument *dst = c.positionalArg(0))
        if (const Target t = addressOf(c.function, dst->value); t >= Target::Library)
          report(c.function, c.lines, "`" + c.resolved + "`", "writes into " + targetWords(t), true);
      return;
    }
    // The API function's own name, also when it is called through an alias (`set_item = ...`).
    const std::string_view api = lastSegment(c.resolved);
    if (startsWith(c.resolved, "ctypes.pythonapi.") && api != "PyFrame_LocalsToFast") { // that one is RUB010's
      for (std::string_view w : kMutatingApi)
        if (api.find(w) != std::string_view::npos) {
          report(c.function, c.lines, "`" + c.resolved + "`",
                 "changes interpreter objects in place through the C API", true);
          return;
        }
      return;
    }
    if (c.method == "mprotect") {
      const py::Argument *prot = c.positionalArg(2);
      const bool writable = prot && ((prot->value.number && (static_cast<long>(*prot->value.number) & 2)) ||
                                     semantic::readsSegment(prot->value, "PROT_WRITE"));
      report(c.function, c.lines, "`" + c.callee + "`",
             writable ? "makes memory pages writable (code or read-only data can then be patched)"
                      : "changes the protection of memory pages",
             writable);
      return;
    }
    if (among(kOpen, c.resolved))
      procMem(c);
  }

  void procMem(const py::Call &c) {
    const py::Argument *path = c.positionalArg(0);
    if (!path || !path->value.string)
      return;
    const std::string &p = path->value.string->value;
    if (!startsWith(p, "/proc/") || !endsWith(p, "/mem"))
      return;
    const py::Argument *mode = c.positionalArg(1) ? c.positionalArg(1) : c.keywordArg(c.resolved == "os.open" ? "flags" : "mode");
    bool write = false;
    if (mode && mode->value.string)
      write = mode->value.string->value.find_first_of("wa+") != std::string::npos;
    if (mode && c.resolved == "os.open")
      write = semantic::readsSegment(mode->value, "O_RDWR") || semantic::readsSegment(mode->value, "O_WRONLY");
    // An f-string path (`f"/proc/{pid}/mem"`) is quoted as written.
    const std::string shown = path->value.string->complete ? "'" + p + "'" : semantic::quote(path->value);
    report(c.function, c.lines, "`" + c.resolved + "(" + shown + ")`",
           write ? "opens the process's own memory for writing" : "opens the process's own memory", write);
  }

  /// `view[i] = v` / `view.value = v` where the view sits over an id()-derived or library
  /// address: the store lands in memory another object owns.
  void store(const py::Assignment &a) {
    using TK = py::Assignment::TargetKind;
    // `ctypes.c_long.from_address(a).value = v` is rooted at the ctypes import.
    if (a.kind != TK::Subscript && a.kind != TK::Attribute && a.kind != TK::ModuleAttribute)
      return;
    const py::Call *view = nullptr;
    for (const py::Call &c : py_.calls) // the view written in place: `c_long.from_address(id(x)).value = 0`
      if (c.function == a.function && overlaps(c.lines, a.lines) && isView(c) &&
          startsWith(a.resolved, c.resolved + "("))
        view = &c;
    const std::string root = semantic::storageRoot(a.target);
    if (!view && !root.empty()) // or through a name bound to the view
      for (const py::Assignment &b : py_.assignments)
        if (b.kind == TK::Name && b.target == root && (b.function == a.function || b.function.empty()))
          for (const py::Call &c : py_.calls)
            if (c.function == b.function && contains(b.value.lines, c.lines) && isView(c))
              view = &c;
    if (!view)
      return;
    if (const Target t = viewTarget(*view); t >= Target::Library) {
      reported_.insert(view->lines.begin);
      report(a.function, a.lines, "`" + a.target + " " + a.op + " ...`", "writes into " + targetWords(t), true);
    }
  }
};

class Rub011 final : public Check {
public:
  std::string_view id() const override { return "RUB011"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override { Analysis(ctx.facts, sink).run(); }
};

} // namespace

std::unique_ptr<Check> makeRub011() { return std::make_unique<Rub011>(); }

} // namespace kbaudit::rules
