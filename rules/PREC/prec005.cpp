// PREC005 magnitude-gated-numerics: forward branches on a statistic of the input values
// (max |x|, a norm, NaN/Inf presence, a flag computed by a small detector kernel and read
// back) and the branches run at different precision or through different algorithms.
//
// The hack it describes: a cheap low-precision path for the benchmark's well-scaled random
// inputs and an exact path for the checker's large-magnitude stress inputs, so correctness
// is graded on one computation and speed on another. What it deliberately leaves alone:
// guards that only raise, clamps, scale computation applied on every call, and branches
// whose sides do the same numeric work.

#include "all_checks.h"
#include "semantic_names.h"
#include "forward_entry.h"

#include "kbaudit/semantic/magnitude_gate.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules {
namespace {

using namespace pytext;

using semantic::MagnitudeOrigin;
using semantic::Strength;

/// A floating dtype the code converts to, with where.
struct DtypeUse {
  std::string dtype; ///< canonical
  std::string note;  ///< "casts to fp8e4m3 (line 12)"
  LineRange lines;
  bool viaHelper = false; ///< in a helper the branch calls (its allocations are not the branch's choice)
  bool factory = false;   ///< a `dtype=` allocation rather than a conversion of existing values
};

/// Numeric work found in a range of lines.
struct Work {
  std::vector<DtypeUse> hostCasts;   ///< `.half()`, `.to(dtype)`, `dtype=` factories
  std::vector<DtypeUse> kernelCasts; ///< casts inside the kernels launched there
  std::vector<std::string> notes;    ///< "launches _k (line 14)", "matmul via torch.mm (line 9)"
  bool heavyLibrary = false;         ///< a torch matmul/conv/... (a different algorithm)
  std::set<std::string> kernels;     ///< authored kernels or extension functions launched

  void note(std::string n) {
    if (notes.size() < 3 && std::find(notes.begin(), notes.end(), n) == notes.end())
      notes.push_back(std::move(n));
  }
  void merge(const Work &inner, const std::string &via) {
    for (DtypeUse d : inner.hostCasts) {
      d.note = via + d.note;
      d.viaHelper = true;
      hostCasts.push_back(d);
    }
    for (DtypeUse d : inner.kernelCasts) {
      d.note = via + d.note;
      kernelCasts.push_back(d);
    }
    for (const std::string &n : inner.notes)
      note(via + n);
    heavyLibrary |= inner.heavyLibrary;
    kernels.insert(inner.kernels.begin(), inner.kernels.end());
  }
};

class Prec005 final : public Check {
public:
  std::string_view id() const override { return "PREC005"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    Scan scan(f, ctx.problem);
    scan.run(sink);
  }

private:
  class Scan {
  public:
    Scan(const Facts &f, const problems::ProblemContext *problem)
        : f_(f), py_(f.python), problem_(problem), reachable_(reachableFromForward(f)), gates_(f, reachable_) {}

    void run(FindingSink &sink) {
      std::set<unsigned> reportedOrigins;
      for (const py::Branch &b : py_.branches) {
        if (!reachable_.count(b.function) || !isSelection(b.kind))
          continue;
        const std::optional<MagnitudeOrigin> gate = gates_.gateOf(b);
        if (!gate)
          continue;
        const Work work = workIn(b.function, b.body);
        // One finding per decision: an `if` and its `elif`s share the statistic.
        if (reportedOrigins.count(gate->lines.begin))
          continue;
        if (report(b, *gate, work, sink))
          reportedOrigins.insert(gate->lines.begin);
      }
    }

  private:
    const Facts &f_;
    const py::PythonFacts &py_;
    const problems::ProblemContext *problem_;
    std::set<std::string> reachable_;
    semantic::MagnitudeGates gates_;

    /// Casts, kernel launches and library work on `lines` of `function`, following calls
    /// into the file's own helper functions one level deep.
    Work workIn(const std::string &function, LineRange lines, int depth = 0) const {
      Work w;
      for (const py::Call &c : py_.calls) {
        if (c.function != function || !lines.contains(c.lines.begin))
          continue;
        if (std::optional<DtypeUse> d = hostCast(c))
          w.hostCasts.push_back(*d);
        if (depth == 0)
          if (const py::Function *helper = helperCalled(py_, c, function))
            w.merge(workIn(helper->qualname, helper->lines, depth + 1), "via " + helper->name + "(): ");
      }
      for (const triton::Launch &l : f_.triton.launches) {
        if (l.function != function || !lines.contains(l.lines.begin))
          continue;
        for (unsigned k : l.candidates) {
          const triton::Kernel &kernel = f_.triton.kernels[k];
          w.kernels.insert(kernel.name);
          w.note("launches " + kernel.name + " (" + lineText(l.lines) + ")");
          for (const triton::Cast &cast : f_.triton.casts)
            if (cast.kernel == k && !cast.bitcast && floatcast::isFloatDtype(cast.target.dtype))
              w.kernelCasts.push_back(
                  {cast.target.dtype, kernel.name + " casts to " + cast.target.dtype + " (" + lineText(cast.lines) + ")",
                   l.lines});
        }
      }
      for (const embed::ExtensionCall &c : f_.embedded.calls)
        if (c.function == function && lines.contains(c.lines.begin)) {
          w.kernels.insert("ext." + c.exported);
          w.note("calls extension function " + c.exported + " (" + lineText(c.lines) + ")");
        }
      for (const kernels::LibraryOp &op : f_.kernels.libraryOps)
        if (op.function == function && lines.contains(op.lines.begin)) {
          w.heavyLibrary = true;
          w.note(std::string(kernels::heavyOpKindName(op.kind)) + " via " + op.callee + " (" + lineText(op.lines) + ")");
        }
      return w;
    }

    /// `x.half()`, `x.to(torch.float8_e4m3fn)`, `torch.empty_like(x, dtype=torch.bfloat16)`.
    static std::optional<DtypeUse> hostCast(const py::Call &c) {
      const std::optional<floatcast::HostCast> cast = floatcast::hostCast(c);
      if (!cast)
        return std::nullopt;
      return DtypeUse{cast->dtype,
                      (cast->conversion ? "casts to " : "allocates ") + cast->dtype + " (" + lineText(c.lines) + ")",
                      c.lines, false, !cast->conversion};
    }

    /// Dtype changes that make the gated code a different precision from the rest: below
    /// the problem's contract (or fp8/fp4 when there is no problem); for host casts also
    /// above the contract (an "exact" path), or without a problem, a dtype the function uses
    /// nowhere outside the branch.
    std::vector<const DtypeUse *> precisionChanges(const Work &work, const py::Branch &b) const {
      const unsigned contract = problem_ ? problems::dtypeBits(problem_->contractDtype()) : 0;
      const auto low = [&](const std::string &d) {
        const unsigned bits = problems::dtypeBits(d);
        return contract ? bits != 0 && bits < contract : bits != 0 && bits <= 8;
      };
      std::set<std::string> outside;
      if (!contract)
        if (const py::Function *fn = py_.findFunction(b.function))
          for (const DtypeUse &d : workIn(b.function, fn->lines, 1).hostCasts)
            if (!b.body.contains(d.lines.begin))
              outside.insert(d.dtype);
      std::vector<const DtypeUse *> out;
      for (const DtypeUse &d : work.hostCasts) {
        const unsigned bits = problems::dtypeBits(d.dtype);
        // An allocation in the gated code (`torch.zeros(..., dtype=torch.float32)` for an
        // early exit) only matters when it is a low-precision buffer.
        const bool exactPath = !d.viaHelper && !d.factory &&
                               ((contract && bits > contract) || (!contract && !outside.count(d.dtype)));
        if (low(d.dtype) || exactPath)
          out.push_back(&d);
      }
      for (const DtypeUse &d : work.kernelCasts)
        if (low(d.dtype))
          out.push_back(&d);
      return out;
    }

    /// A PyTorch computation (not an allocation, a view or device bookkeeping) in `lines`.
    const py::Call *torchComputation(const std::string &function, LineRange lines) const {
      static const std::set<std::string> kNotCompute = {
          "empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like", "tensor",
          "as_tensor", "arange", "device", "Size", "is_tensor", "no_grad", "inference_mode", "manual_seed",
          "finfo", "iinfo", "empty_strided", "from_numpy", "get_default_dtype", "is_floating_point"};
      for (const py::Call &c : py_.calls) {
        // `torch.softmax(...).float()`: the call itself is named, not a method of its result.
        if (c.function != function || !lines.contains(c.lines.begin) || c.resolved.rfind("torch.", 0) != 0 ||
            c.resolved.find('(') != std::string::npos)
          continue;
        if (c.resolved.rfind("torch.cuda.", 0) == 0 || c.resolved.rfind("torch.backends.", 0) == 0 ||
            kNotCompute.count(c.method))
          continue;
        return &c;
      }
      return nullptr;
    }

    /// The gated arm answers with PyTorch and no kernel while the rest of the function (the
    /// other arms, or the code after an arm that returns) runs the authored kernels: the inputs
    /// the gate picks out never reach the kernel. A note for the finding, or "".
    std::string torchFallback(const py::Branch &b) const {
      if (b.arms.empty())
        return {};
      const py::Function *fn = py_.findFunction(b.function);
      if (!fn)
        return {};
      bool kernelsElsewhere = false;
      const py::Call *fallback = nullptr;
      for (const py::BranchArm &arm : b.arms) {
        const Work w = workIn(b.function, arm.body);
        if (!w.kernels.empty())
          kernelsElsewhere = true;
        else if (!fallback)
          fallback = torchComputation(b.function, arm.body);
      }
      if (b.body.end < fn->lines.end && !workIn(b.function, LineRange{b.body.end + 1, fn->lines.end}).kernels.empty())
        kernelsElsewhere = true;
      if (!fallback || !kernelsElsewhere)
        return {};
      return "answers with PyTorch (" + fallback->resolved + ", " + lineText(fallback->lines) +
             ") where the other path runs the authored kernels";
    }

    bool report(const py::Branch &b, const MagnitudeOrigin &gate, const Work &work, FindingSink &sink) const {
      const std::vector<const DtypeUse *> precision = precisionChanges(work, b);
      const std::string fallback = torchFallback(b);
      const bool algorithm = work.heavyLibrary || work.kernels.size() >= 2 || !fallback.empty();
      // A bare max/min is often routing metadata (the longest sequence): only a dtype change
      // makes it interesting, and even then it is listed rather than decided on.
      if (precision.empty() && (gate.strength == Strength::Weak || !algorithm))
        return false;

      std::string difference;
      std::set<std::string> seen;
      for (const DtypeUse *d : precision)
        if (seen.size() < 3 && seen.insert(d->note).second)
          difference += (difference.empty() ? "" : "; ") + d->note;
      if (!fallback.empty())
        difference += (difference.empty() ? "" : "; ") + fallback;
      for (const std::string &n : work.notes)
        difference += (difference.empty() ? "" : "; ") + n;

      std::string evidence = "branch at " + lineText(b.lines) + " tests `" + b.condition + "`";
      std::optional<Confidence> confidence;
      if (gate.strength == Strength::Weak) {
        confidence = Confidence::Low;
        evidence += "; the statistic is a bare max/min, which may be routing metadata rather than magnitude";
      } else if (!precision.empty() && problem_ && belowContract(precision)) {
        confidence = Confidence::High;
        evidence += "; the gated code computes below the problem's " + problem_->contractDtype() + " contract";
      }
      sink.report(gate.lines, {{"gate", gate.what}, {"difference", difference}}, evidence, confidence);
      return true;
    }

    bool belowContract(const std::vector<const DtypeUse *> &uses) const {
      const unsigned contract = problems::dtypeBits(problem_->contractDtype());
      for (const DtypeUse *d : uses)
        if (unsigned bits = problems::dtypeBits(d->dtype); contract && bits && bits < contract)
          return true;
      return false;
    }
  };
};

} // namespace

std::unique_ptr<Check> makePrec005() { return std::make_unique<Prec005>(); }

} // namespace kbaudit::rules
