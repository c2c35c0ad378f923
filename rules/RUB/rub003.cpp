// RUB003 monkeypatching: the solution replaces functions or attributes of torch, triton,
// time, builtins and other libraries the grader shares with it.

#include "all_checks.h"
#include "semantic_names.h"
#include "kbaudit/semantic/graded_scope.h"

#include <algorithm>
#include <array>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rubscope;

// Libraries the grader and the reference run in the same process; a local sidecar module
// is the solution's own business.
constexpr std::array<std::string_view, 11> kSharedRoots = {"torch", "triton", "time",  "timeit", "builtins", "gc",
                                                           "numpy", "random", "math", "cupy",   "sys"};

enum class Kind { Comparison, Timing, Inputs, Compute, Init, Setting };

struct Target {
  Kind kind;
  std::string_view what; ///< what the patched object does for the grader
};

bool anyPrefix(std::string_view r, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) {
    return r == p || startsWith(r, std::string(p) + ".") || (endsWith(p, ".") && startsWith(r, p));
  });
}

/// Process-wide switches other rules own (precision flags: PREC002) or that are ordinary
/// configuration (cudnn autotuning, compiler caches, custom-op namespaces).
bool isConfigKnob(std::string_view r) {
  if (anyPrefix(r, {"torch.backends", "torch.cuda.matmul", "torch.ops"}))
    return true;
  for (std::string_view seg : {".config.", "._config."})
    if (r.find(seg) != std::string_view::npos)
      return true;
  const std::string_view last = lastSegment(r);
  return last == "allow_tf32" || last == "fp32_precision" || startsWith(last, "allow_fp16") ||
         startsWith(last, "allow_bf16");
}

Target classify(std::string_view r) {
  const std::string_view last = lastSegment(r);
  if (anyPrefix(r, {"torch.testing", "numpy.testing", "torch.allclose", "torch.isclose", "torch.equal", "torch.eq",
                    "torch.Tensor.allclose", "torch.Tensor.isclose", "torch.Tensor.equal", "torch.Tensor.eq",
                    "torch.Tensor.__eq__", "torch.Tensor.__ne__", "torch.Tensor.__bool__", "numpy.allclose",
                    "numpy.isclose", "numpy.array_equal", "torch.cosine_similarity",
                    "torch.nn.functional.cosine_similarity", "math.isclose"}))
    return {Kind::Comparison, "the correctness comparison"};
  if (anyPrefix(r, {"gc", "builtins"}))
    return {Kind::Timing, "the interpreter's built-ins or garbage collector"};
  if (anyPrefix(r, {"time", "timeit", "torch.cuda.synchronize", "torch.cuda.Event",
                    "torch.cuda.Stream", "torch.cuda.current_stream", "torch.cuda.default_stream",
                    "torch.cuda.empty_cache", "torch.cuda.graph", "torch.cuda.CUDAGraph", "torch.utils.benchmark",
                    "triton.testing", "torch.Tensor.record_stream", "torch.cuda.nvtx", "torch.profiler",
                    "torch.autograd.profiler"}))
    return {Kind::Timing, "timing or device synchronisation"};
  if (anyPrefix(r, {"torch.manual_seed", "torch.seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
                    "torch.randn", "torch.rand", "torch.randint", "torch.randn_like", "torch.rand_like",
                    "torch.randint_like", "torch.normal", "torch.randperm", "torch.Generator", "torch.random",
                    "numpy.random", "random"}))
    return {Kind::Inputs, "how the grader's inputs are generated"};
  if (anyPrefix(r, {"torch.nn.init"}) || last == "reset_parameters")
    return {Kind::Init, "weight initialisation"};
  return {Kind::Compute, "a library function the reference and the grader also call"};
}

bool isLiteral(const py::Expr &e) {
  return e.kind == py::ExprKind::Number || e.kind == py::ExprKind::Bool || e.kind == py::ExprKind::String ||
         e.kind == py::ExprKind::None;
}

class Rub003 final : public Check {
public:
  std::string_view id() const override { return "RUB003"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const py::PythonFacts &py = ctx.facts.python;
    const GradedScope scope(ctx.facts);
    for (const py::Assignment &a : py.assignments) {
      if (scope.inMainGuard(a.lines))
        continue;
      if (a.kind == py::Assignment::TargetKind::ModuleAttribute)
        checkAttribute(py, scope, a, sink);
      else if (a.kind == py::Assignment::TargetKind::Subscript && startsWith(a.resolved, "sys.modules["))
        sink.report(a.lines, {{"target", a.target}, {"what", "the module the grader imports under that name"}},
                    "", scope.graded(a.function, a.lines) ? std::nullopt : std::optional(Confidence::Low));
    }
  }

private:
  static void checkAttribute(const py::PythonFacts &py, const GradedScope &scope, const py::Assignment &a,
                             FindingSink &sink) {
    const std::string_view r = a.resolved;
    const std::string_view root = r.substr(0, r.find('.'));
    if (std::find(kSharedRoots.begin(), kSharedRoots.end(), root) == kSharedRoots.end() || isConfigKnob(r))
      return;
    if (root == "sys" && !anyPrefix(r, {"sys.modules", "sys.settrace", "sys.setprofile", "sys.exit"}))
      return; // sys.path / sys.stdout redirection and the like do not touch grading
    if (restoresOriginal(py, a))
      return;
    const Target t = classify(r);
    std::optional<Confidence> confidence;
    std::string note;
    if (t.kind == Kind::Comparison || t.kind == Kind::Timing || t.kind == Kind::Inputs)
      confidence = Confidence::High;
    if (t.kind == Kind::Init) {
      confidence = Confidence::Low;
      note = "graders usually load the reference's weights over the initialised ones";
    } else if (isLiteral(a.value) && t.kind == Kind::Compute) {
      confidence = Confidence::Low;
      note = "a plain value assigned to a library attribute (a setting, not a replaced function)";
    } else if (aliasesSameLibrary(a, root)) {
      confidence = Confidence::Low;
      note = "the new value is another attribute of the same library (a compatibility alias)";
    } else if (t.kind == Kind::Compute && (root == "triton" || guardedByHasattr(py, a))) {
      confidence = Confidence::Low;
      note = root == "triton" ? "a Triton attribute; the grader and the reference run on torch"
                              : "fills in an attribute only when the library lacks it (a compatibility shim)";
    } else if (isPrivate(r) && t.kind == Kind::Compute) {
      confidence = Confidence::Low;
      note = "an internal attribute; its effect on grading is not known statically";
    }
    if (!scope.graded(a.function, a.lines)) {
      confidence = Confidence::Low;
      note = "the assignment is not on a path the grader runs";
    }
    sink.report(a.lines, {{"target", a.target}, {"what", std::string(t.what)}}, note, confidence);
  }

  /// `if not hasattr(torch, "x"): torch.x = ...`.
  static bool guardedByHasattr(const py::PythonFacts &py, const py::Assignment &a) {
    const std::string attr(lastSegment(a.resolved));
    for (const py::Branch &b : py.branches)
      if (b.function == a.function && contains(b.body, a.lines) &&
          (b.condition.find("hasattr") != std::string::npos || b.condition.find("getattr") != std::string::npos) &&
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

  static bool aliasesSameLibrary(const py::Assignment &a, std::string_view root) {
    const std::string &v = a.value.resolved;
    return (a.value.kind == py::ExprKind::Attribute || a.value.kind == py::ExprKind::Name) &&
           startsWith(v, std::string(root) + ".");
  }

  /// `torch.x = _orig_x` after `_orig_x = torch.x`: putting the original back.
  static bool restoresOriginal(const py::PythonFacts &py, const py::Assignment &a) {
    if (a.value.resolved == a.resolved)
      return true;
    if (a.value.kind != py::ExprKind::Name)
      return false;
    for (const py::Assignment &saved : py.assignments)
      if (saved.kind == py::Assignment::TargetKind::Name && saved.target == a.value.text &&
          saved.value.resolved == a.resolved && saved.lines.begin < a.lines.begin)
        return true;
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeRub003() { return std::make_unique<Rub003>(); }

} // namespace kbaudit::rules
