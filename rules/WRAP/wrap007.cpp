// WRAP007 reference-fallback: forward (or a function it reaches) can hand the graded result
// to torch: an exception handler around the kernel, or a device/shape/availability branch,
// that computes the same heavy operation the reference does with a PyTorch call.
//
// Many honest solutions keep a CPU or build-failure fallback, so the rule grades the guard:
// a silent `except Exception` around the kernel is the risky shape (any failure on the graded
// GPU turns into a torch number nobody sees); a loud handler, a device or availability check
// and a shape guard are listed for review only, unless the fallback uses an operation the
// problem forbids. Elementwise tails, fallbacks that only raise, and fallbacks in helpers
// forward never reaches stay quiet.

#include "all_checks.h"
#include "semantic_names.h"
#include "forward_entry.h"

#include "kbaudit/semantic/expr_structure.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules {
namespace {

using namespace pytext;

Confidence raised(Confidence c) { return c == Confidence::Low ? Confidence::Medium : Confidence::High; }

/// A heavy torch operation a fallback performs, possibly inside a helper it calls.
struct HeavyUse {
  const kernels::LibraryOp *op = nullptr;
  LineRange at;    ///< the line in the guarded code (the helper call when `via` is set)
  std::string via; ///< helper name, "" when the op is written in place
};

/// What selects the fallback, graded by how likely it is to fire on the graded GPU.
enum class GuardKind { SilentHandler, LoudHandler, CallerFrame, Device, Availability, Shape, Other };

class Wrap007 final : public Check {
public:
  std::string_view id() const override { return "WRAP007"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    // Without an authored kernel on the forward path there is nothing to fall back from:
    // that is WRAP001's finding.
    if (!f.kernels.anyReached())
      return;
    Scan(f, ctx.problem, sink).run();
  }

private:
  class Scan {
  public:
    Scan(const Facts &f, const problems::ProblemContext *problem, FindingSink &sink)
        : f_(f), py_(f.python), problem_(problem), sink_(sink),
          reachable_(reachableFromForward(f)) {}

    void run() {
      collectFallbackFlags();
      for (const py::TryHandler &h : py_.tryHandlers)
        checkHandler(h);
      checkBranches();
    }

  private:
    const Facts &f_;
    const py::PythonFacts &py_;
    const problems::ProblemContext *problem_;
    FindingSink &sink_;
    std::set<std::string> reachable_;
    /// Names an exception handler sets (`_EXT = None`, `self._use_fallback = True`): a branch
    /// that tests them is an availability check.
    std::set<std::string> fallbackFlags_;
    std::set<unsigned> reportedLines_;

    void collectFallbackFlags() {
      for (const py::TryHandler &h : py_.tryHandlers)
        for (const py::Assignment &a : py_.assignments)
          if (a.function == h.function && h.handlerLines.contains(a.lines.begin))
            fallbackFlags_.insert(a.target);
    }

    bool inHandler(const std::string &function, unsigned line) const {
      for (const py::TryHandler &h : py_.tryHandlers)
        if (h.function == function && h.handlerLines.contains(line))
          return true;
      return false;
    }

    /// Heavy torch operations on `lines` of `function`, and in helpers called from there
    /// (a reference re-implementation is usually a helper: `return self._reference(x)`).
    std::vector<HeavyUse> heavyIn(const std::string &function, LineRange lines, int depth = 0) const {
      std::vector<HeavyUse> out;
      for (const kernels::LibraryOp &op : f_.kernels.libraryOps)
        if (op.function == function && lines.contains(op.lines.begin))
          out.push_back({&op, op.lines, ""});
      if (depth >= 3)
        return out;
      for (const py::Call &c : py_.calls) {
        if (c.function != function || !lines.contains(c.lines.begin))
          continue;
        const py::Function *helper = helperCalled(py_, c, function);
        if (!helper || helper->qualname == function || !authorsNoKernel(helper->qualname))
          continue;
        for (HeavyUse u : heavyIn(helper->qualname, helper->lines, depth + 1)) {
          u.at = c.lines;
          u.via = helper->name;
          out.push_back(u);
        }
      }
      return out;
    }

    /// A helper that launches kernels itself is the kernel path, not the fallback.
    bool authorsNoKernel(const std::string &function) const {
      for (const triton::Launch &l : f_.triton.launches)
        if (l.function == function)
          return false;
      for (const embed::ExtensionCall &c : f_.embedded.calls)
        if (c.function == function)
          return false;
      return true;
    }

    /// The heavy op is the kind of work the reference does (or any heavy op when the
    /// reference is unknown), and the problem does not allow it through torch.
    bool relevant(const kernels::LibraryOp &op) const {
      if (!problem_)
        return true;
      const std::string kind = kernels::heavyOpKindName(op.kind);
      if (problem_->policy)
        for (problems::OpClass c : problem_->policy->allowedLibraryOps)
          if (kind == problems::opClassName(c))
            return false;
      const std::vector<problems::OpClass> &dominant = problem_->reference.dominantOps;
      if (!problem_->reference.found || dominant.empty())
        return true;
      for (problems::OpClass c : dominant) {
        const std::string name = problems::opClassName(c);
        // References often spell attention out as matmuls and softmax.
        if (name == kind || (name == "attention" && kind == "matmul"))
          return true;
      }
      return false;
    }

    /// The forbidden entry (problem.yaml or suite policy) the op is, if any.
    std::optional<std::string> forbiddenAs(const kernels::LibraryOp &op) const {
      if (!problem_)
        return std::nullopt;
      const bool tensorMethod = !startsWith(op.callee, "torch.") && op.callee != "@";
      for (const std::string &entry : problem_->allForbidden()) {
        if (entry == op.callee)
          return entry;
        if (tensorMethod && startsWith(entry, "Tensor.") && lastSegment(entry) == lastSegment(op.callee))
          return entry;
      }
      return std::nullopt;
    }

    std::vector<HeavyUse> relevantOnly(std::vector<HeavyUse> uses) const {
      std::erase_if(uses, [&](const HeavyUse &u) { return !relevant(*u.op); });
      return uses;
    }

    static bool announces(const py::TryHandler &h) {
      for (const std::string &c : h.handlerCalls) {
        const std::string_view m = lastSegment(c);
        if (c == "print" || startsWith(c, "warnings.") || startsWith(c, "logging.") || m == "warn" ||
            m == "warning" || m == "error" || m == "exception" || m == "write")
          return true;
      }
      return false;
    }

    void checkHandler(const py::TryHandler &h) {
      if (h.reraises || !reachable_.count(h.function))
        return;
      const std::vector<HeavyUse> uses = relevantOnly(heavyIn(h.function, h.handlerLines));
      if (uses.empty())
        return;
      std::string caught = "except";
      if (h.exceptionTypes.empty())
        caught += ":";
      for (size_t i = 0; i < h.exceptionTypes.size(); ++i)
        caught += (i ? ", " : " ") + h.exceptionTypes[i];
      const std::string guard = "`" + caught + "` around " + lineText(h.tryLines);
      report(uses, announces(h) ? GuardKind::LoudHandler : GuardKind::SilentHandler, guard);
    }

    /// How a branch condition chooses the torch path; nullopt when it does not look like a
    /// fallback choice at all (a loop index, an accumulator test: part of the algorithm).
    std::optional<GuardKind> guardOf(const py::Branch &b) const {
      const auto has = [&](py::ConditionTag t) { return std::find(b.tags.begin(), b.tags.end(), t) != b.tags.end(); };
      if (has(py::ConditionTag::CallerFrame))
        return GuardKind::CallerFrame;
      for (const std::string &n : b.names)
        if (fallbackFlags_.count(n))
          return GuardKind::Availability;
      // `not x.is_cuda or K % 16`: the shape half fires on the graded GPU too.
      if (has(py::ConditionTag::Shape) || has(py::ConditionTag::Dtype) || readsShapeName(b))
        return GuardKind::Shape;
      if (has(py::ConditionTag::Device) || has(py::ConditionTag::Environment))
        return GuardKind::Device;
      if (has(py::ConditionTag::Attribute) || has(py::ConditionTag::Magnitude))
        return GuardKind::Other;
      // A predicate the file defines (`if not _kernel_ok():`) decides something about the
      // environment or the call, not a step of the arithmetic.
      for (const std::string &c : b.calls)
        if (const py::Function *fn = predicateCalled(c, b.function))
          return inspectsCaller(fn->qualname) ? GuardKind::CallerFrame : GuardKind::Other;
      return std::nullopt;
    }

    /// `M, K = x.shape; if M == 1:` tests a shape through a local name.
    bool readsShapeName(const py::Branch &b) const {
      for (const py::Assignment &a : py_.assignments) {
        if (a.function != b.function || a.kind != py::Assignment::TargetKind::Name || a.lines.begin > b.lines.begin ||
            std::find(b.names.begin(), b.names.end(), a.target) == b.names.end())
          continue;
        if (semantic::readsShape(a.value))
          return true;
      }
      return false;
    }

    const py::Function *predicateCalled(const std::string &callee, const std::string &caller) const {
      if (startsWith(callee, "self.")) {
        const std::string cls = classOf(caller);
        return cls.empty() ? nullptr : py_.findFunction(cls + "." + callee.substr(5));
      }
      const py::Function *fn = py_.findFunction(callee);
      return fn && (fn->className.empty() || semantic::calledThroughClass(*fn)) ? fn : nullptr;
    }

    /// The predicate reads the call stack or the command line (who is running it).
    bool inspectsCaller(const std::string &function) const {
      for (const py::NameRef &r : py_.nameRefs)
        if (r.function == function &&
            (startsWith(r.resolved, "inspect") || startsWith(r.resolved, "traceback") ||
             startsWith(r.resolved, "sys._getframe") || startsWith(r.resolved, "sys.argv") ||
             startsWith(r.resolved, "sys.orig_argv")))
          return true;
      return false;
    }

    /// The innermost selecting branch whose guarded code holds `line`.
    const py::Branch *selectorOf(const std::string &function, unsigned line) const {
      const py::Branch *best = nullptr;
      for (const py::Branch &b : py_.branches) {
        if (b.function != function || !isSelection(b.kind) || !b.body.contains(line) ||
            (b.kind != "conditional" && b.lines.contains(line)))
          continue;
        if (!best || b.body.begin > best->body.begin ||
            (b.body.begin == best->body.begin && b.lines.begin > best->lines.begin))
          best = &b;
      }
      return best;
    }

    void checkBranches() {
      // Group heavy uses by the branch that selects them, one finding per branch statement.
      std::map<const py::Branch *, std::vector<HeavyUse>> byBranch;
      for (const std::string &fn : reachable_) {
        const py::Function *def = py_.findFunction(fn);
        if (!def)
          continue;
        for (const HeavyUse &u : relevantOnly(heavyIn(fn, def->lines))) {
          if (inHandler(fn, u.at.begin))
            continue;
          if (const py::Branch *b = selectorOf(fn, u.at.begin))
            byBranch[b].push_back(u);
        }
      }
      std::set<std::pair<std::string, unsigned>> statements;
      for (const auto &[b, uses] : byBranch) {
        const std::optional<GuardKind> kind = guardOf(*b);
        if (!kind)
          continue;
        if (!statements.insert({b->function, b->body.end}).second)
          continue;
        report(uses, *kind, "branch `" + b->condition + "` (" + lineText(b->lines) + ")");
      }
    }

    void report(const std::vector<HeavyUse> &uses, GuardKind kind, const std::string &guard) {
      const HeavyUse &first = *std::min_element(uses.begin(), uses.end(), [](const HeavyUse &a, const HeavyUse &b) {
        return a.at.begin < b.at.begin;
      });
      if (!reportedLines_.insert(first.at.begin).second)
        return;
      std::string work = std::string(kernels::heavyOpKindName(first.op->kind)) + " via " + first.op->callee;
      if (!first.via.empty())
        work += " in " + first.via + "() (" + lineText(first.op->lines) + ")";

      Confidence confidence = Confidence::Low;
      std::string evidence;
      switch (kind) {
      case GuardKind::SilentHandler:
        confidence = Confidence::Medium;
        evidence = "a silent exception handler: any failure of the kernel path on the graded GPU returns torch's "
                   "result unnoticed";
        break;
      case GuardKind::CallerFrame:
        confidence = Confidence::Medium;
        evidence = "the branch inspects who is calling, so the torch path can serve the checker";
        break;
      case GuardKind::LoudHandler:
        evidence = "the handler reports the fallback (warning or log), an honest degradation unless it fires on the "
                   "graded GPU";
        break;
      case GuardKind::Device:
        evidence = "a device or capability guard: fires only off the graded GPU, unless the grader runs elsewhere";
        break;
      case GuardKind::Availability:
        evidence = "an availability flag set when building or launching the kernel failed";
        break;
      case GuardKind::Shape:
        evidence = "a shape or dtype guard: the torch path serves the graded shapes that fail it";
        break;
      case GuardKind::Other:
        evidence = "a state or predicate guard";
        break;
      }
      for (const HeavyUse &u : uses)
        if (std::optional<std::string> entry = forbiddenAs(*u.op)) {
          confidence = raised(confidence);
          evidence += "; the fallback uses " + u.op->callee + ", which the problem forbids (`" + *entry + "`)";
          break;
        }
      sink_.report(first.at, {{"guard", guard}, {"work", work}}, evidence, confidence);
    }
  };
};

} // namespace

std::unique_ptr<Check> makeWrap007() { return std::make_unique<Wrap007>(); }

} // namespace kbaudit::rules
