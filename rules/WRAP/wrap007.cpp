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

#include "kbaudit/semantic/fallback_path.h"

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

using semantic::HeavyUse;

/// What selects the fallback: an exception handler, or a branch (semantic::GuardKind).
enum class GuardKind { SilentHandler, LoudHandler, CallerFrame, Device, Availability, Shape, Other };

GuardKind branchGuard(semantic::GuardKind k) {
  switch (k) {
  case semantic::GuardKind::CallerFrame: return GuardKind::CallerFrame;
  case semantic::GuardKind::Availability: return GuardKind::Availability;
  case semantic::GuardKind::Shape: return GuardKind::Shape;
  case semantic::GuardKind::Device: return GuardKind::Device;
  case semantic::GuardKind::Other: return GuardKind::Other;
  }
  return GuardKind::Other;
}

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
        : f_(f), py_(f.python), problem_(problem), sink_(sink), reachable_(reachableFromForward(f)), guards_(f.python) {}

    void run() {
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
    semantic::FallbackGuards guards_;
    std::set<unsigned> reportedLines_;

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

    void checkHandler(const py::TryHandler &h) {
      if (h.reraises || !reachable_.count(h.function))
        return;
      const std::vector<HeavyUse> uses = relevantOnly(semantic::heavyOpsIn(f_, h.function, h.handlerLines));
      if (uses.empty())
        return;
      std::string caught = "except";
      if (h.exceptionTypes.empty())
        caught += ":";
      for (size_t i = 0; i < h.exceptionTypes.size(); ++i)
        caught += (i ? ", " : " ") + h.exceptionTypes[i];
      const std::string guard = "`" + caught + "` around " + lineText(h.tryLines);
      report(uses, semantic::announcesFailure(h) ? GuardKind::LoudHandler : GuardKind::SilentHandler, guard);
    }

    void checkBranches() {
      // Group heavy uses by the branch that selects them, one finding per branch statement.
      std::map<const py::Branch *, std::vector<HeavyUse>> byBranch;
      for (const std::string &fn : reachable_) {
        const py::Function *def = py_.findFunction(fn);
        if (!def)
          continue;
        for (const HeavyUse &u : relevantOnly(semantic::heavyOpsIn(f_, fn, def->lines))) {
          if (guards_.inHandler(fn, u.at.begin))
            continue;
          if (const py::Branch *b = guards_.selectorOf(fn, u.at.begin))
            byBranch[b].push_back(u);
        }
      }
      std::set<std::pair<std::string, unsigned>> statements;
      for (const auto &[b, uses] : byBranch) {
        const std::optional<semantic::GuardKind> kind = guards_.guardOf(*b);
        if (!kind)
          continue;
        if (!statements.insert({b->function, b->body.end}).second)
          continue;
        report(uses, branchGuard(*kind), "branch `" + b->condition + "` (" + lineText(b->lines) + ")");
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
