// RUB006 input-distribution-sniffing: forward reads a fixed-size sample of the input values
// (`x[:256].abs().max()`, `x.flatten()[:8192]`, a one-program Triton kernel that reduces
// the first N elements) to classify the input's regime, and the classification picks the
// computation.
//
// A checker's stress inputs and a benchmark's random inputs differ in distribution; a
// cheap look at a prefix is enough to tell them apart and route each to a different path.
// PREC005 covers statistics over the whole input choosing precision; this rule is about the
// sample itself feeding a branch. Left alone: slicing to split work into chunks (no
// statistic), statistics over the whole input, guards that only raise.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"
#include "rub_branch_work.h"

#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/scoped_names.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rub;

enum class Strength { None, Weak, Strong };

/// Statistics that describe the values' magnitude or health are strong; a bare max/min,
/// mean or any/all may be routing metadata and is weak.
Strength statistic(std::string_view method) {
  static const std::set<std::string_view> strong = {"abs",   "absolute", "amax", "amin",     "aminmax", "norm",
                                                    "std",   "var",      "isnan", "isinf",   "isfinite", "nanmax",
                                                    "nanmin", "vector_norm", "std_mean", "var_mean"};
  static const std::set<std::string_view> weak = {"max", "min", "mean", "sum", "any", "all"};
  if (strong.count(method))
    return Strength::Strong;
  if (weak.count(method))
    return Strength::Weak;
  return Strength::None;
}

struct Sample {
  Strength strength = Strength::None;
  std::string what; ///< "x.flatten()[:8192].abs().max()"
  LineRange lines;
};

class Scan {
public:
  explicit Scan(const CheckContext &ctx)
      : f_(ctx.facts), reachable_(reachableFromForward(f_)) {}

  void run(FindingSink &sink) {
    collectPythonSamples();
    collectKernelSamples();
    if (samples_.empty())
      return;
    propagate();
    std::set<unsigned> reported;
    for (const py::Branch &b : f_.python.branches) {
      if (!reachable_.count(b.function) || (b.kind != "if" && b.kind != "elif" && b.kind != "conditional"))
        continue;
      const std::optional<Sample> gate = gateOf(b);
      if (!gate || reported.count(gate->lines.begin))
        continue;
      if (report(b, *gate, sink))
        reported.insert(gate->lines.begin);
    }
  }

private:
  const Facts &f_;
  std::set<std::string> reachable_;
  /// Sample reads by line, and names holding a decision derived from one.
  std::map<std::string, Sample> samples_; ///< "function@line"
  semantic::ScopedNames<Sample> tainted_;

  static std::string at(std::string_view function, unsigned line) {
    return std::string(function) + "@" + std::to_string(line);
  }

  /// A name that holds the input values: a parameter of the function (not self), or a
  /// local bound to a view of one (`flat = x.reshape(-1)`).
  bool isInputName(std::string_view name, const std::string &function) const {
    if (name.empty() || name == "self")
      return false;
    if (const py::Function *fn = f_.python.findFunction(function))
      if (std::find(fn->params.begin(), fn->params.end(), name) != fn->params.end())
        return true;
    for (const py::Assignment &a : f_.python.assignments)
      if (a.function == function && a.kind == py::Assignment::TargetKind::Name && a.target == name) {
        // A chain rooted in a parameter that is not itself a subscript (a sample is no view).
        const std::string_view root = semantic::rootName(a.value);
        if (root != name && root != "self" && a.value.kind != py::ExprKind::Subscript)
          if (const py::Function *fn = f_.python.findFunction(function))
            if (std::find(fn->params.begin(), fn->params.end(), root) != fn->params.end())
              return true;
      }
    return false;
  }

  void addSample(const std::string &function, Sample s) {
    auto [it, inserted] = samples_.emplace(at(function, s.lines.begin), s);
    if (!inserted && static_cast<int>(s.strength) > static_cast<int>(it->second.strength))
      it->second = s;
  }

  /// `x[:256].abs().max()`, `torch.amax(x.flatten()[:8192])`.
  void collectPythonSamples() {
    for (const py::Call &c : f_.python.calls) {
      if (!reachable_.count(c.function))
        continue;
      const Strength s = statistic(c.method);
      if (s == Strength::None)
        continue;
      std::vector<std::string> roots{semantic::constantWindowRoot(c.callee)};
      for (const py::Argument &a : c.args)
        if (a.keyword.empty())
          roots.push_back(semantic::constantWindowRoot(a.value));
      if (std::any_of(roots.begin(), roots.end(), [&](const std::string &r) { return isInputName(r, c.function); }))
        addSample(c.function, Sample{s, c.callee + "()", c.lines});
    }
  }

  /// A Triton kernel with no program id and no loop reads one fixed window from its
  /// pointers; when it also reduces (|x|, max, NaN tests) it is a detector over a sample.
  std::optional<Strength> sampleKernel(unsigned k) const {
    const triton::Kernel &kernel = f_.triton.kernels[k];
    if (kernel.work.matmul || !kernel.work.loads || kernel.work.loopReduction)
      return std::nullopt;
    bool magnitude = false, reduces = false;
    for (const triton::Op &op : f_.triton.ops) {
      if (op.kernel != k)
        continue;
      if (op.name == "program_id" || op.name == "num_programs" || op.kind == triton::OpKind::Loop)
        return std::nullopt;
      if (op.name == "abs" || op.name == "fabs" || op.name == "isnan" || op.name == "isinf" || op.name == "isfinited")
        magnitude = true;
      if (op.kind == triton::OpKind::Reduction)
        reduces = true;
    }
    for (const py::Branch &b : f_.python.branches)
      if (b.kind == "while" && kernel.lines.contains(b.lines.begin))
        return std::nullopt;
    if (!reduces)
      return std::nullopt;
    return magnitude ? Strength::Strong : Strength::Weak;
  }

  void collectKernelSamples() {
    for (const triton::Launch &l : f_.triton.launches) {
      if (!l.kernel || !reachable_.count(l.function))
        continue;
      const std::optional<Strength> s = sampleKernel(*l.kernel);
      if (!s)
        continue;
      const triton::Kernel &k = f_.triton.kernels[*l.kernel];
      bool readsInput = false;
      std::vector<std::string_view> buffers;
      for (const py::Argument &a : l.args) {
        const std::string_view name = semantic::dottedName(a.value);
        if (name.empty())
          continue;
        if (isInputName(name, l.function))
          readsInput = true;
        else
          buffers.push_back(name);
      }
      if (!readsInput)
        continue;
      // The buffer is read back on the host: that read is the sample entering Python.
      for (const py::Call &c : f_.python.calls) {
        if (c.function != l.function || c.lines.begin < l.lines.begin)
          continue;
        static const std::set<std::string_view> reads = {"item", "tolist", "cpu", "numpy", "any", "all"};
        if (!reads.count(c.method) || std::find(buffers.begin(), buffers.end(), c.receiver) == buffers.end())
          continue;
        addSample(c.function, Sample{*s, "Triton kernel " + k.name + " reducing a fixed window of the input (" +
                                             lineText(l.lines) + "), read back with ." + c.method + "()",
                                     c.lines});
      }
    }
  }

  const Sample *sampleOn(const std::string &function, LineRange lines) const {
    for (unsigned n = lines.begin; lines.valid() && n <= lines.end; ++n)
      if (auto it = samples_.find(at(function, n)); it != samples_.end())
        return &it->second;
    return nullptr;
  }

  /// Decisions flow through names, comparisons and bool()/int()/.item(), not through
  /// tensor arithmetic (a sampled scale used to quantize is not a branch).
  static bool carriesDecision(const py::Expr &v) {
    switch (v.kind) {
    case py::ExprKind::Name:
    case py::ExprKind::Attribute:
    case py::ExprKind::Comparison:
    case py::ExprKind::BoolOp:
    case py::ExprKind::UnaryOp:
    case py::ExprKind::Conditional:
      return true;
    case py::ExprKind::Call: {
      static const std::set<std::string_view> decisive = {"item", "bool", "int", "float", "any", "all",
                                                          "max",  "min",  "amax", "abs", "isnan", "isinf",
                                                          "isfinite", "norm", "std", "mean", "cpu", "tolist"};
      return decisive.count(lastSegment(v.resolved)) > 0;
    }
    default:
      return false;
    }
  }

  void propagate() {
    for (int round = 0; round < 4; ++round) {
      bool grew = false;
      for (const py::Assignment &a : f_.python.assignments) {
        if (!reachable_.count(a.function) || !carriesDecision(a.value))
          continue;
        if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
          continue;
        const Sample *s = sampleOn(a.function, a.lines);
        if (!s)
          if (const auto *read = tainted_.readBy(a.function, a.value))
            s = &read->second;
        if (s && tainted_.bind(a.function, a.target, Sample(*s)))
          grew = true;
      }
      if (!grew)
        break;
    }
  }

  std::optional<Sample> gateOf(const py::Branch &b) const {
    if (const Sample *s = sampleOn(b.function, b.lines))
      return *s;
    if (const auto *read = tainted_.readAmong(b.function, b.names))
      return read->second;
    return std::nullopt;
  }

  bool report(const py::Branch &b, const Sample &gate, FindingSink &sink) const {
    const std::vector<LineRange> arms = armsOf(f_, b);
    std::string difference;
    bool differs = false;
    if (arms.size() >= 2) {
      const ArmWork first = workIn(f_, b.function, arms.front());
      bool anyWork = first.anyCall;
      for (size_t i = 1; i < arms.size(); ++i) {
        const ArmWork other = workIn(f_, b.function, arms[i]);
        anyWork |= other.anyCall;
        if (first.kernels != other.kernels || first.library != other.library ||
            first.dtypeSet() != other.dtypeSet()) {
          differs = true;
          const ArmWork &richer = first.notes.size() + first.dtypes.size() >= other.notes.size() + other.dtypes.size()
                                      ? first
                                      : other;
          std::set<std::string> seen;
          for (const DtypeUse &d : richer.dtypes)
            if (seen.size() < 3 && seen.insert(d.note).second)
              difference += (difference.empty() ? "" : "; ") + d.note;
          for (const std::string &n : richer.notes)
            if (seen.insert(n).second)
              difference += (difference.empty() ? "" : "; ") + n;
          break;
        }
      }
      if (!anyWork)
        return false; // a guard that only raises or logs
    }
    if (difference.empty())
      difference = "the sides of the branch could not be told apart statically";
    const bool clear = differs && gate.strength == Strength::Strong;
    std::string evidence = "branch at " + lineText(b.lines) + " tests `" + b.condition + "`";
    if (gate.strength == Strength::Weak)
      evidence += "; the sampled statistic is a bare max/min/mean, which may be metadata rather than magnitude";
    sink.report(gate.lines, {{"sample", gate.what}, {"branch", lineText(b.lines)}, {"difference", difference}},
                evidence, clear ? std::nullopt : std::optional<Confidence>(Confidence::Low));
    return true;
  }
};

class Rub006 final : public Check {
public:
  std::string_view id() const override { return "RUB006"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!forwardFound(ctx.facts, sink))
      return;
    Scan(ctx).run(sink);
  }
};

} // namespace

std::unique_ptr<Check> makeRub006() { return std::make_unique<Rub006>(); }

} // namespace kbaudit::rules
