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

#include <algorithm>
#include <cctype>
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

bool isInt(std::string_view s) {
  if (s.empty())
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '_'; });
}

/// A subscript item that is a constant window: `:8192`, `0:256`, `::97` (every part empty
/// or an integer literal, at least one non-zero literal).
bool constantWindow(std::string_view item) {
  if (item.find(':') == std::string_view::npos)
    return false;
  bool literal = false;
  size_t start = 0;
  while (start <= item.size()) {
    const size_t colon = item.find(':', start);
    const std::string_view part = trim(item.substr(start, colon == std::string_view::npos ? std::string_view::npos
                                                                                           : colon - start));
    if (!part.empty()) {
      if (!isInt(part))
        return false;
      literal |= part.find_first_not_of("0_") != std::string_view::npos;
    }
    if (colon == std::string_view::npos)
      break;
    start = colon + 1;
  }
  return literal;
}

/// The root name of an expression text ("x" of "x.flatten()[:64].abs").
std::string rootName(std::string_view text) {
  size_t n = 0;
  while (n < text.size() && pytext::isIdentChar(text[n]))
    ++n;
  return std::string(text.substr(0, n));
}

/// The text before the first constant-window subscript, when the text holds one.
std::optional<std::string> sampledBase(std::string_view text) {
  int depth = 0;
  size_t open = std::string_view::npos;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[') {
      if (depth++ == 0)
        open = i;
    } else if (c == ']' && depth > 0 && --depth == 0) {
      const std::string_view inside = text.substr(open + 1, i - open - 1);
      int d = 0;
      size_t itemStart = 0;
      for (size_t j = 0; j <= inside.size(); ++j) {
        if (j < inside.size() && (inside[j] == '(' || inside[j] == '['))
          ++d;
        else if (j < inside.size() && (inside[j] == ')' || inside[j] == ']'))
          --d;
        else if (j == inside.size() || (d == 0 && inside[j] == ',')) {
          if (constantWindow(inside.substr(itemStart, j - itemStart)))
            return std::string(text.substr(0, open));
          itemStart = j + 1;
        }
      }
    }
  }
  return std::nullopt;
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
  /// Sample reads by line, and names holding a decision derived from one, by scope key.
  std::map<std::string, Sample> samples_;  ///< "function@line"
  std::map<std::string, Sample> tainted_;  ///< scope key

  static std::string scopeKey(std::string_view function, std::string_view name) {
    if (startsWith(name, "self."))
      return classOf(function) + "#" + std::string(name);
    return std::string(function) + ":" + std::string(name);
  }

  static std::string at(std::string_view function, unsigned line) {
    return std::string(function) + "@" + std::to_string(line);
  }

  /// A name that holds the input values: a parameter of the function (not self), or a
  /// local bound to a view of one (`flat = x.reshape(-1)`).
  bool isInputName(const std::string &name, const std::string &function) const {
    if (name.empty() || name == "self")
      return false;
    if (const py::Function *fn = f_.python.findFunction(function))
      if (std::find(fn->params.begin(), fn->params.end(), name) != fn->params.end())
        return true;
    for (const py::Assignment &a : f_.python.assignments)
      if (a.function == function && a.kind == py::Assignment::TargetKind::Name && a.target == name) {
        const std::string root = rootName(a.value.text);
        if (root != name && !root.empty() && a.value.text.find('[') == std::string::npos)
          if (const py::Function *fn = f_.python.findFunction(function))
            if (std::find(fn->params.begin(), fn->params.end(), root) != fn->params.end() && root != "self")
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
      std::vector<std::string_view> texts{c.callee};
      for (const py::Argument &a : c.args)
        if (a.keyword.empty())
          texts.push_back(a.value.text);
      for (std::string_view t : texts) {
        const std::optional<std::string> base = sampledBase(t);
        if (!base || !isInputName(rootName(*base), c.function))
          continue;
        addSample(c.function, Sample{s, c.callee + "()", c.lines});
        break;
      }
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
      std::vector<std::string> buffers;
      for (const py::Argument &a : l.args) {
        if (a.value.kind != py::ExprKind::Name && a.value.kind != py::ExprKind::Attribute)
          continue;
        if (isInputName(a.value.text, l.function))
          readsInput = true;
        else
          buffers.push_back(a.value.text);
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

  const Sample *taintedIn(const std::string &function, std::string_view text) const {
    for (const auto &[key, s] : tainted_) {
      const size_t sep = key.find_first_of(":#");
      const std::string owner = key.substr(0, sep), name = key.substr(sep + 1);
      const bool visible = key[sep] == '#' ? owner == classOf(function) : owner == function;
      if (visible && mentionsName(text, name))
        return &s;
    }
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
      return decisive.count(lastSegment(v.resolved.empty() ? v.text : v.resolved)) > 0;
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
        const std::string key = scopeKey(a.function, a.target);
        if (tainted_.count(key))
          continue;
        const Sample *s = sampleOn(a.function, a.lines);
        if (!s)
          s = taintedIn(a.function, a.value.text);
        if (!s)
          continue;
        tainted_.emplace(key, *s);
        grew = true;
      }
      if (!grew)
        break;
    }
  }

  std::optional<Sample> gateOf(const py::Branch &b) const {
    if (const Sample *s = sampleOn(b.function, b.lines))
      return *s;
    for (const std::string &n : b.names)
      if (const Sample *s = taintedIn(b.function, n))
        return *s;
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
