// RUB005 shape-gated-numerics: forward tests for exact problem sizes (`M == 16384`,
// `(M, N, K) == (4096, 4096, 4096)`, `n in (4096, 8192)`) and the sides of that dispatch
// compute at different precision, so the checker's shapes can take the exact path while
// the benchmark's shapes take the cheap one.
//
// Shape dispatch is everywhere in honest solutions (tile sizes, split-K, a GEMV for
// M == 1): it stays quiet unless one side casts to a lower dtype (or runs a tf32 dot) that
// the other side does not use. Thresholds (`M <= 32`) and small constants (`D == 128`) are
// left alone: the suspicious form is equality with a large, specific size.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"
#include "rub_branch_work.h"

#include "kbaudit/semantic/exact_size_test.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/expr_reads.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rub;

class Rub005 final : public Check {
public:
  std::string_view id() const override { return "RUB005"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    const std::set<std::string> reachable = reachableFromForward(f);
    const std::map<std::string, std::string> decisions = exactDecisions(f, reachable);
    for (const py::Branch &b : f.python.branches) {
      if (!reachable.count(b.function) || (b.kind != "if" && b.kind != "elif"))
        continue;
      std::optional<std::string> gate = exactGate(f, std::string_view(b.condition), b.function);
      if (!gate)
        for (const std::string &n : b.names)
          if (auto it = decisions.find(scopeKey(b.function, n)); it != decisions.end())
            gate = it->second + " (through " + n + ")";
      if (!gate)
        continue;
      reportDifference(ctx, b, *gate, sink);
    }
  }

private:
  static std::string scopeKey(std::string_view function, std::string_view name) {
    if (startsWith(name, "self."))
      return classOf(function) + "#" + std::string(name);
    return std::string(function) + ":" + std::string(name);
  }

  /// Whether `subject` (a name, attribute, tuple of them or expression) holds a size:
  /// it reads a shape, or every name in it is a shape-derived local, a parameter of a
  /// helper, or a self attribute set in __init__ (the constructor's size arguments).
  static bool isSize(const Facts &f, const semantic::ExactSizeTest &t, const std::string &function) {
    if (t.subjectReadsShape)
      return true;
    return !t.items.empty() && std::all_of(t.items.begin(), t.items.end(),
                                           [&](const std::string &item) { return sizeName(f, item, function); });
  }

  static bool sizeName(const Facts &f, std::string_view name, const std::string &function) {
    for (char c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
        return false;
    if (startsWith(name, "self.")) {
      const std::string init = classOf(function) + ".__init__";
      for (const py::Assignment &a : f.python.assignments)
        if (a.function == init && a.target == name)
          return true;
      return false;
    }
    for (const py::Assignment &a : f.python.assignments)
      if (a.function == function && a.kind == py::Assignment::TargetKind::Name && a.target == name &&
          (semantic::readsShape(a.value) || semantic::readsAttributeOf(a.value, "self")))
        return true;
    if (const py::Function *fn = f.python.findFunction(function); fn && fn->name != "forward")
      return std::find(fn->params.begin(), fn->params.end(), name) != fn->params.end();
    return false;
  }

  template <typename Condition>
  static std::optional<std::string> exactGate(const Facts &f, const Condition &condition, const std::string &function) {
    for (const semantic::ExactSizeTest &t : semantic::exactSizeTests(condition))
      if (isSize(f, t, function))
        return t.clause;
    return std::nullopt;
  }

  /// Names assigned an exact-size test (`use_fp8 = M == 16384`), keyed by scope.
  static std::map<std::string, std::string> exactDecisions(const Facts &f, const std::set<std::string> &reachable) {
    std::map<std::string, std::string> out;
    for (const py::Assignment &a : f.python.assignments) {
      if (!reachable.count(a.function) && a.function.find("__init__") == std::string::npos)
        continue;
      if (a.value.kind != py::ExprKind::Comparison && a.value.kind != py::ExprKind::BoolOp)
        continue;
      if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
        continue;
      if (std::optional<std::string> g = exactGate(f, a.value, a.function))
        out.emplace(scopeKey(a.function, a.target), *g);
    }
    return out;
  }

  static bool reportDifference(const CheckContext &ctx, const py::Branch &b, const std::string &gate,
                               FindingSink &sink) {
    const std::vector<LineRange> arms = armsOf(ctx.facts, b);
    if (arms.size() < 2)
      return false;
    const ArmWork gated = workIn(ctx.facts, b.function, arms.front());
    for (size_t i = 1; i < arms.size(); ++i) {
      const ArmWork other = workIn(ctx.facts, b.function, arms[i]);
      std::vector<DtypeUse> lower = lowerIn(gated, other, ctx.problem);
      std::string side = "the block under the test (" + lineText(arms.front()) + ")";
      if (lower.empty()) {
        lower = lowerIn(other, gated, ctx.problem);
        side = "the path taken otherwise (" + (arms[i].valid() ? lineText(arms[i]) : std::string("skipping the block")) + ")";
      }
      if (lower.empty())
        continue;
      std::string difference;
      std::set<std::string> seen;
      for (const DtypeUse &d : lower)
        if (seen.size() < 3 && seen.insert(d.note).second)
          difference += (difference.empty() ? "" : "; ") + d.note;
      difference = side + " " + difference + ", the other side does not";
      const unsigned bits = precisionBits(lower.front().dtype);
      // Without a contract only a cast to 8 bits or fewer is unambiguous: a bf16 side may
      // be the problem's own precision.
      const bool clear = ctx.problem ? !ctx.problem->contractDtype().empty() : bits <= 8;
      sink.report(b.lines, {{"condition", gate}, {"difference", difference}},
                  "dispatch at " + lineText(b.lines) + " on `" + b.condition + "`",
                  clear ? std::nullopt : std::optional<Confidence>(Confidence::Low));
      return true;
    }
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeRub005() { return std::make_unique<Rub005>(); }

} // namespace kbaudit::rules
