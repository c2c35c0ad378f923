// RUB003 monkeypatching: the solution replaces functions or attributes of torch, triton,
// time, builtins and other libraries the grader shares with it, whether it names them or
// reaches them through aliases, `type(obj)`, `getattr`, `sys.modules`, `vars(mod)` or a
// computed setattr name (Assignment::computedTarget / nameCandidates, read through
// semantic::libraryAttributeWritten).

#include "all_checks.h"
#include "rub_patch_target.h"
#include "semantic_names.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/import_time.h"
#include "kbaudit/semantic/library_write.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rubscope;
using namespace rub;

bool isLiteral(const py::Expr &e) {
  return e.kind == py::ExprKind::Number || e.kind == py::ExprKind::Bool || e.kind == py::ExprKind::String ||
         e.kind == py::ExprKind::None;
}

/// What is written is code: a lambda, a function or class of the file, another function's
/// code object, or a call that makes one (`functools.partial`).
bool replacesWithCode(const py::PythonFacts &py, const py::Expr &value) {
  if (value.kind == py::ExprKind::Lambda || value.kind == py::ExprKind::Call)
    return true;
  if (value.kind == py::ExprKind::Attribute && lastSegment(value.resolved) == "__code__")
    return true;
  return value.kind == py::ExprKind::Name && (py.findFunction(value.resolved) || py.findClass(value.resolved));
}

class Rub003 final : public Check {
public:
  std::string_view id() const override { return "RUB003"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const py::PythonFacts &py = ctx.facts.python;
    const GradedScope scope(ctx.facts);
    // A patch installed by a function the module body calls at import is in force for the
    // grader as much as one written at module level.
    const std::set<std::string> atImport = semantic::functionsRunAtImport(py, scope);
    auto graded = [&](const std::string &function, LineRange lines) {
      return scope.graded(function, lines) || semantic::runsAtImport(atImport, scope, function, lines);
    };
    for (const py::Assignment &a : py.assignments) {
      if (scope.inMainGuard(a.lines))
        continue;
      if (a.kind == py::Assignment::TargetKind::Subscript && a.computedTarget.empty() &&
          startsWith(a.resolved, "sys.modules[")) {
        sink.report(a.lines, {{"target", a.target}, {"what", "the module the grader imports under that name"}},
                    "", graded(a.function, a.lines) ? std::nullopt : std::optional(Confidence::Low));
        continue;
      }
      const std::optional<std::string> target = semantic::libraryAttributeWritten(a);
      // A helper's setattr whose object or name is a parameter is judged at its call sites,
      // with what each passes.
      const bool openName = target && lastSegment(*target) == kDynamicName && a.nameCandidates.empty();
      if ((!target || openName) && checkHelperSetattr(py, scope, a, graded, sink))
        continue;
      if (target)
        checkAttribute(py, a, *target, a.lines, a.nameCandidates, graded(a.function, a.lines), a.value, sink);
    }
  }

private:
  /// `r` is the library attribute written (possibly "<obj>.<dynamic>" with `candidates`), the
  /// finding goes on `at`; `value` is what is written.
  static void checkAttribute(const py::PythonFacts &py, const py::Assignment &a, const std::string &written,
                             LineRange at, const std::vector<std::string> &candidates, bool onGradedPath,
                             const py::Expr &value, FindingSink &sink) {
    const std::string_view root = std::string_view(written).substr(0, written.find('.'));
    if (!isSharedRoot(root) || isConfigKnob(written))
      return;
    if (root == "sys" && !anyPrefix(written, {"sys.modules", "sys.settrace", "sys.setprofile", "sys.exit"}))
      return; // sys.path / sys.stdout redirection and the like do not touch grading
    // Putting a saved original back, or a patch undone before its function returns: the
    // grader's code never runs while it is in force.
    if (semantic::restoresOriginal(py, a) || semantic::restoredLater(py, a))
      return;
    std::string r = written;
    std::string note;
    std::optional<Confidence> confidence;
    bool unknownName = false;
    if (lastSegment(r) == kDynamicName) {
      const SettledName w = settleName(std::string_view(r).substr(0, r.size() - kDynamicName.size() - 1), candidates);
      r = w.name;
      note = w.note;
      unknownName = w.unknown;
    }
    const PatchTarget t = classifyPatch(r);
    auto lower = [&](std::string why) {
      confidence = Confidence::Low;
      note = note.empty() ? std::move(why) : note + "; " + why;
    };
    if (t.kind == PatchKind::Comparison || t.kind == PatchKind::Timing || t.kind == PatchKind::Inputs ||
        t.kind == PatchKind::Reporting || t.kind == PatchKind::Harness)
      confidence = Confidence::High;
    if (unknownName) {
      confidence = Confidence::Low;
    } else if (t.kind == PatchKind::Harness && !replacesWithCode(py, value)) {
      lower("a value, not a function, written to the grader's own module (a setting such as the problem size, "
            "which the grader's check sets the same way)");
    } else if (t.kind == PatchKind::Init) {
      lower("graders usually load the reference's weights over the initialised ones");
    } else if (isLiteral(value) && t.kind == PatchKind::Compute) {
      lower("a plain value assigned to a library attribute (a setting, not a replaced function)");
    } else if (aliasesSameLibrary(value, root)) {
      lower("the new value is another attribute of the same library (a compatibility alias)");
    } else if (t.kind == PatchKind::Compute && (root == "triton" || guardedByHasattr(py, a, r))) {
      lower(root == "triton" ? "a Triton attribute; the grader and the reference run on torch"
                             : "fills in an attribute only when the library lacks it (a compatibility shim)");
    } else if (isPrivate(r) && t.kind == PatchKind::Compute) {
      lower("an internal attribute; its effect on grading is not known statically");
    }
    if (!onGradedPath)
      lower("the assignment is not on a path the grader runs");
    // Name the library attribute itself when the code reaches it under another spelling.
    const bool settled = !unknownName && r != written;
    if (r != a.target && !settled)
      note = "replaces " + r + (note.empty() ? "" : "; " + note);
    sink.report(at, {{"target", settled ? r : a.target}, {"what", std::string(t.what)}}, note, confidence);
  }

  /// `def _swap(obj, name, fn): setattr(obj, name, fn)` called as `_swap(torch, "allclose", f)`:
  /// the helper's setattr replaces whatever its callers pass, so each call site is judged
  /// with the library and name it passes.
  /// True when the setattr's object or name is a parameter and call sites were judged.
  template <typename Graded>
  static bool checkHelperSetattr(const py::PythonFacts &py, const GradedScope &scope, const py::Assignment &a,
                                 const Graded &graded, FindingSink &sink) {
    if (a.op != "setattr" || a.function.empty())
      return false;
    const py::Function *helper = py.findFunction(a.function);
    const py::Call *set = setattrCallOf(py, a);
    if (!helper || !set || !set->positionalArg(0) || !set->positionalArg(1) || !set->positionalArg(2))
      return false;
    const py::Expr &objArg = set->positionalArg(0)->value;
    const py::Expr &nameArg = set->positionalArg(1)->value;
    const py::Expr &valueArg = set->positionalArg(2)->value;
    const int objParam = paramIndex(*helper, objArg);
    const int nameParam = paramIndex(*helper, nameArg);
    if (objParam < 0 && nameParam < 0)
      return false;
    bool judged = false;
    for (const py::Call &c : py.calls) {
      if (scope.calleeFunction(c.function, c) != helper->qualname || scope.inMainGuard(c.lines))
        continue;
      const py::Expr *obj = objParam < 0 ? &objArg : argumentFor(*helper, c, objParam);
      const py::Expr *name = nameParam < 0 ? &nameArg : argumentFor(*helper, c, nameParam);
      if (!obj || !name || !importedObject(py, *obj))
        continue;
      const bool staticName = name->string && name->string->complete;
      const std::string written = obj->resolved + "." + (staticName ? name->string->value : std::string(kDynamicName));
      const int valueParam = paramIndex(*helper, valueArg);
      const py::Expr *value = valueParam < 0 ? &valueArg : argumentFor(*helper, c, valueParam);
      py::Assignment atCall = a;
      atCall.target = semantic::quote(*obj) + "." + (staticName ? name->string->value : std::string(kDynamicName));
      atCall.resolved = written;
      checkAttribute(py, atCall, written, c.lines, {}, graded(c.function, c.lines), value ? *value : valueArg, sink);
      judged = true;
    }
    return judged;
  }

  static const py::Call *setattrCallOf(const py::PythonFacts &py, const py::Assignment &a) {
    for (const py::Call &c : py.calls)
      if (c.resolved == "setattr" && c.function == a.function && c.lines == a.lines)
        return &c;
    return nullptr;
  }

  /// Index of the parameter `e` names in `fn`'s parameter list, -1 when it is not one.
  static int paramIndex(const py::Function &fn, const py::Expr &e) {
    if (e.kind != py::ExprKind::Name)
      return -1;
    const auto it = std::find(fn.params.begin(), fn.params.end(), semantic::rootName(e));
    return it == fn.params.end() ? -1 : static_cast<int>(it - fn.params.begin());
  }

  /// The argument call `c` passes for parameter `index` of `fn`, by keyword or position
  /// (a method's `self` is not passed positionally).
  static const py::Expr *argumentFor(const py::Function &fn, const py::Call &c, int index) {
    const std::string &param = fn.params[static_cast<std::size_t>(index)];
    if (const py::Argument *kw = c.keywordArg(param))
      return &kw->value;
    const int shift = !fn.className.empty() && !fn.params.empty() && fn.params.front() == "self" ? 1 : 0;
    if (index - shift < 0)
      return nullptr;
    const py::Argument *pos = c.positionalArg(static_cast<unsigned>(index - shift));
    return pos ? &pos->value : nullptr;
  }

  /// A name chain whose head is bound by an import (`torch`, `torch.cuda`, an alias of one).
  static bool importedObject(const py::PythonFacts &py, const py::Expr &e) {
    if (e.kind != py::ExprKind::Name && e.kind != py::ExprKind::Attribute)
      return false;
    const std::string_view head = semantic::rootName(e);
    return std::any_of(py.imports.begin(), py.imports.end(), [&](const py::Import &i) { return i.boundName == head; });
  }

  /// `if not hasattr(torch, "x"): torch.x = ...`.
  static bool guardedByHasattr(const py::PythonFacts &py, const py::Assignment &a, std::string_view written) {
    const std::string attr(lastSegment(written));
    for (const py::Branch &b : py.branches)
      if (b.function == a.function && contains(b.body, a.lines) &&
          std::any_of(b.calls.begin(), b.calls.end(),
                      [](const std::string &c) { return c == "hasattr" || c == "getattr"; }) &&
          b.condition.find(attr) != std::string::npos)
        return true;
    return false;
  }

  static bool isPrivate(std::string_view r) {
    for (size_t pos = r.find('.'); pos != std::string_view::npos; pos = r.find('.', pos + 1))
      if (pos + 1 < r.size() && r[pos + 1] == '_' && !(pos + 2 < r.size() && r[pos + 2] == '_'))
        return true;
    return false;
  }

  static bool aliasesSameLibrary(const py::Expr &v, std::string_view root) {
    return (v.kind == py::ExprKind::Attribute || v.kind == py::ExprKind::Name) &&
           startsWith(v.resolved, std::string(root) + ".");
  }
};

} // namespace

std::unique_ptr<Check> makeRub003() { return std::make_unique<Rub003>(); }

} // namespace kbaudit::rules
