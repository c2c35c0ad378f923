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

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/magnitude_decision.h"

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

std::string_view receiverOf(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? std::string_view{} : dotted.substr(0, dot);
}

using semantic::carriesDecision;
using semantic::readsBack;
using semantic::statisticStrength;
using semantic::Strength;

/// Where a magnitude decision enters the program, for the message and the quoted lines.
struct Origin {
  Strength strength = Strength::None;
  std::string what; ///< "x.abs().max()", "max |x| from Triton kernel _detect (line 18)"
  LineRange lines;  ///< the line that computes or reads back the statistic
};

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
        : f_(f), py_(f.python), problem_(problem),
          reachable_(reachableFromForward(f)) {}

    void run(FindingSink &sink) {
      collectDetectorBuffers();
      collectTaint();
      std::set<unsigned> reportedOrigins;
      for (const py::Branch &b : py_.branches) {
        if (!reachable_.count(b.function) || !isSelection(b.kind))
          continue;
        const std::optional<Origin> gate = gateOf(b);
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
    /// Buffers a magnitude-detector kernel writes, keyed by scope ("Class.attr" or "fn:name").
    std::map<std::string, Origin> detectorBuffers_;
    /// Names holding a magnitude-derived decision, keyed the same way.
    std::map<std::string, Origin> tainted_;

    /// The scope key a name read in `function` refers to: self attributes live on the
    /// class, other names in the function (module names are looked up as a fallback).
    static std::string keyOf(std::string_view function, std::string_view name) {
      if (startsWith(name, "self."))
        return classOf(function) + "#" + std::string(name);
      return std::string(function) + ":" + std::string(name);
    }

    const Origin *lookup(const std::map<std::string, Origin> &m, std::string_view function,
                         std::string_view name) const {
      if (auto it = m.find(keyOf(function, name)); it != m.end())
        return &it->second;
      if (auto it = m.find(keyOf("", name)); it != m.end())
        return &it->second;
      return nullptr;
    }

    /// Triton kernels that reduce |x| (or NaN/Inf tests) to a flag or a maximum: the
    /// buffers passed to their launches hold a magnitude statistic once read back.
    void collectDetectorBuffers() {
      std::set<unsigned> detectors;
      for (unsigned k = 0; k < f_.triton.kernels.size(); ++k) {
        bool absLike = false, maxLike = false;
        for (const triton::Op &op : f_.triton.ops) {
          if (op.kernel != k)
            continue;
          if (op.name == "abs" || op.name == "fabs" || op.name == "isnan" || op.name == "isinf" ||
              op.name == "isfinited" || op.name == "isinfd" || op.name == "isnand")
            absLike = true;
          if (op.kind == triton::OpKind::Reduction && (op.name == "max" || op.name == "min" || op.name == "reduce"))
            maxLike = true;
          if (op.kind == triton::OpKind::Atomic && (op.name == "atomic_max" || op.name == "atomic_or"))
            maxLike = true;
        }
        // A kernel that also multiplies matrices is a GEMM with a fused epilogue, not a probe.
        if (absLike && maxLike && !f_.triton.kernels[k].work.matmul)
          detectors.insert(k);
      }
      for (const triton::Launch &l : f_.triton.launches) {
        if (!l.kernel || !detectors.count(*l.kernel) || !reachable_.count(l.function))
          continue;
        const triton::Kernel &k = f_.triton.kernels[*l.kernel];
        Origin o{Strength::Strong,
                 "max |x| reduced by Triton kernel " + k.name + " (" + lineText(l.lines) + ")", l.lines};
        for (const py::Argument &a : l.args)
          if (a.keyword.empty() && (a.value.kind == py::ExprKind::Name || a.value.kind == py::ExprKind::Attribute))
            detectorBuffers_.emplace(keyOf(l.function, a.value.resolved), o);
      }
    }

    /// The strongest statistic among calls on `lines` of `function`, if any.
    std::optional<Origin> statisticOn(std::string_view function, LineRange lines) const {
      std::optional<Origin> best;
      for (const py::Call &c : py_.calls) {
        if (c.function != function || !lines.contains(c.lines.begin))
          continue;
        Origin o;
        o.lines = lines;
        if (Strength s = statisticStrength(c.resolved); s != Strength::None) {
          o.strength = s;
          o.what = c.callee + "()";
        } else if (readsBack(c.resolved)) {
          const Origin *d = lookup(detectorBuffers_, function, receiverOf(c.callee));
          if (!d)
            continue;
          o.strength = d->strength;
          o.what = d->what + ", read back with ." + std::string(c.method) + "()";
        } else {
          continue;
        }
        if (!best || static_cast<int>(o.strength) > static_cast<int>(best->strength))
          best = o;
      }
      return best;
    }

    /// Names assigned a magnitude decision, followed through plain re-assignments and
    /// boolean combinations (a few rounds suffice for real code).
    void collectTaint() {
      for (int round = 0; round < 4; ++round) {
        bool grew = false;
        for (const py::Assignment &a : py_.assignments) {
          if (!reachable_.count(a.function) && !a.function.empty())
            continue;
          if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
            continue;
          if (!carriesDecision(a.value))
            continue;
          const std::string key = keyOf(a.function, a.target);
          if (tainted_.count(key))
            continue;
          std::optional<Origin> o = statisticOn(a.function, a.lines);
          if (!o)
            o = taintedRead(a.function, a.value);
          if (!o)
            continue;
          o->lines = a.lines; // quote the decision itself
          tainted_.emplace(key, *o);
          grew = true;
        }
        if (!grew)
          break;
      }
    }

    /// A tainted name the value reads.
    std::optional<Origin> taintedRead(std::string_view function, const py::Expr &value) const {
      for (const auto &[key, origin] : tainted_) {
        const std::string name = key.substr(key.find_first_of(":#") + 1);
        const std::string owner = key.substr(0, key.find_first_of(":#"));
        const bool visible = key.find('#') != std::string::npos ? owner == classOf(function)
                                                                : (owner == function || owner.empty());
        if (visible && semantic::reads(value, name))
          return origin;
      }
      return std::nullopt;
    }

    /// The magnitude statistic a branch condition tests, directly or through a name.
    std::optional<Origin> gateOf(const py::Branch &b) const {
      std::optional<Origin> best;
      const auto consider = [&](Origin o) {
        if (!best || static_cast<int>(o.strength) > static_cast<int>(best->strength))
          best = std::move(o);
      };
      for (const std::string &c : b.calls) {
        if (Strength s = statisticStrength(c); s != Strength::None)
          consider(Origin{s, c + "()", b.lines});
        else if (readsBack(c))
          if (const Origin *d = lookup(detectorBuffers_, b.function, receiverOf(c)))
            consider(Origin{d->strength, d->what + ", read back in the condition", b.lines});
      }
      for (const std::string &n : b.names)
        if (const Origin *t = lookup(tainted_, b.function, n))
          consider(*t);
      return best;
    }

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

    bool report(const py::Branch &b, const Origin &gate, const Work &work, FindingSink &sink) const {
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
