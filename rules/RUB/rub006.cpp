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

#include "kbaudit/semantic/magnitude_decision.h"
#include "kbaudit/semantic/input_samples.h"
#include "kbaudit/semantic/scoped_names.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rub;

using semantic::SampleStrength;

struct Sample {
  SampleStrength strength = SampleStrength::None;
  std::string what; ///< "x.flatten()[:8192].abs().max()"
  LineRange lines;
};

class Scan {
public:
  explicit Scan(const CheckContext &ctx)
      : f_(ctx.facts), reachable_(reachableFromForward(f_)) {}

  void run(FindingSink &sink) {
    for (const semantic::InputSample &s : semantic::inputSamples(f_, reachable_))
      addSample(s.function, Sample{s.strength, s.what, s.lines});
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

  void addSample(const std::string &function, Sample s) {
    auto [it, inserted] = samples_.emplace(at(function, s.lines.begin), s);
    if (!inserted && static_cast<int>(s.strength) > static_cast<int>(it->second.strength))
      it->second = s;
  }

  const Sample *sampleOn(const std::string &function, LineRange lines) const {
    for (unsigned n = lines.begin; lines.valid() && n <= lines.end; ++n)
      if (auto it = samples_.find(at(function, n)); it != samples_.end())
        return &it->second;
    return nullptr;
  }

  void propagate() {
    for (int round = 0; round < 4; ++round) {
      bool grew = false;
      for (const py::Assignment &a : f_.python.assignments) {
        if (!reachable_.count(a.function) || !semantic::carriesDecision(a.value))
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
    const bool clear = differs && gate.strength == SampleStrength::Strong;
    std::string evidence = "branch at " + lineText(b.lines) + " tests `" + b.condition + "`";
    if (gate.strength == SampleStrength::Weak)
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
