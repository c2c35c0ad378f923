// RUB004 call-count-gating: forward counts its calls and computes something different once
// the count passes a threshold (exact during the first, checked calls; cached or approximate
// during the timed ones).

#include "all_checks.h"
#include "semantic_names.h"
#include "rub_branch_work.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/graded_scope.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rubscope;

struct Counter {
  std::string name;      ///< "self._calls" or "_CALLS"
  std::string owner;     ///< the class for self attributes, "" for module globals
  LineRange increment;   ///< where it is bumped
  std::string function;  ///< the function bumping it
};

/// `x += 1`, `x = x + 1`.
bool isIncrement(const py::Assignment &a) {
  if (a.op == "+=")
    return true;
  return a.op == "=" && semantic::stepsFrom(a.value, a.target);
}

/// Calls that make the first calls different without changing the result: compiling,
/// autotuning, capturing a CUDA graph, timing candidate configurations, building extensions.
bool isSetupCall(const py::Call &c) {
  const std::string r = lower(c.resolved), m = lower(c.method);
  for (std::string_view s : {"torch.cuda.cudagraph", "torch.cuda.graph", "torch.cuda.make_graphed_callables",
                             "torch.compile", "torch.cuda.synchronize", "torch.cuda.event", "triton.testing",
                             "time.", "torch.utils.cpp_extension", "torch.cuda.stream"})
    if (startsWith(r, s))
      return true;
  for (std::string_view s : {"tune", "warmup", "warm_up", "compile", "capture", "bench", "profile"})
    if (m.find(s) != std::string::npos)
      return true;
  return m == "replay" || m == "record" || m == "elapsed_time";
}

/// Calls that neither compute nor report: views, copies, allocation, bookkeeping.
bool isCheap(const py::Call &c) {
  static const std::set<std::string_view> cheap = {
      "clone", "detach", "view",  "reshape", "contiguous", "copy_",  "to",     "empty", "empty_like", "zeros",
      "zeros_like", "fill_", "zero_", "len", "isinstance", "getattr", "setattr", "hasattr", "tuple", "list",
      "dict", "int", "float", "bool", "min", "max", "append", "get", "items", "keys", "values", "range", "size",
      "dim", "numel", "stride", "data_ptr", "item"};
  return cheap.count(c.method) || isLoggingCall(c.resolved) || isExceptionConstructor(c.resolved);
}

struct ArmSummary {
  bool computes = false;  ///< launches a kernel, calls a library op or uses `@`
  bool library = false;   ///< a heavy torch/library op (the reference's own arithmetic)
  bool kernel = false;    ///< an authored kernel or extension function
  bool readsState = false;///< reads self attributes or module state without computing
  bool torchMath = false; ///< computes through torch operators rather than an authored kernel
  bool assigns = false;   ///< changes some state
  bool setup = false;
};

class Rub004 final : public Check {
public:
  std::string_view id() const override { return "RUB004"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &facts = ctx.facts;
    const GradedScope scope(facts);
    const std::vector<Counter> counters = perCallCounters(facts, scope);
    if (counters.empty())
      return;
    for (const py::Branch &b : facts.python.branches) {
      if (std::find(b.tags.begin(), b.tags.end(), py::ConditionTag::CallCounter) == b.tags.end())
        continue;
      if (!scope.graded(b.function, b.lines))
        continue;
      const Counter *c = counterIn(b, counters);
      if (!c || !isThreshold(facts.python, b, *c))
        continue;
      judge(facts, b, *c, sink);
    }
  }

private:
  /// Counters bumped on a path every call takes (forward or what it reaches).
  static std::vector<Counter> perCallCounters(const Facts &facts, const GradedScope &scope) {
    const py::PythonFacts &py = facts.python;
    std::set<std::string> globals;
    for (const py::Assignment &a : py.assignments)
      if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name)
        globals.insert(a.target);
    std::vector<Counter> out;
    for (const py::Assignment &a : py.assignments) {
      if (!isIncrement(a) || a.function.empty() || !scope.graded(a.function, a.lines))
        continue;
      if (!std::any_of(facts.kernels.reachableFunctions.begin(), facts.kernels.reachableFunctions.end(),
                       [&](const std::string &r) { return inFunction(a.function, r); }))
        continue; // bumped in __init__ or a method forward never calls: not a call counter
      if (a.kind == py::Assignment::TargetKind::SelfAttribute)
        out.push_back({a.target, classOf(a.function), a.lines, a.function});
      else if (a.kind == py::Assignment::TargetKind::Name && globals.count(a.target))
        out.push_back({a.target, "", a.lines, a.function});
    }
    return out;
  }

  static const Counter *counterIn(const py::Branch &b, const std::vector<Counter> &counters) {
    for (const Counter &c : counters) {
      if (!c.owner.empty() && c.owner != classOf(b.function))
        continue;
      if (std::find(b.names.begin(), b.names.end(), c.name) != b.names.end())
        return &c;
    }
    return nullptr;
  }

  /// The counter is compared with a fixed number (`> 3`, `% 2`, `== WARMUP`) or tested for
  /// zero: a warm-up count, not a generation stamp compared with a stored key.
  static bool isThreshold(const py::PythonFacts &py, const py::Branch &b, const Counter &c) {
    std::string rest = b.condition;
    for (size_t pos = rest.find(c.name); pos != std::string::npos; pos = rest.find(c.name))
      rest.erase(pos, c.name.size());
    const bool compares = rest.find_first_of("<>=!%") != std::string::npos;
    if (!compares)
      return true; // `if self.calls:` / `if not _CALLS:`
    if (std::any_of(rest.begin(), rest.end(), [](unsigned char ch) { return std::isdigit(ch); }))
      return true;
    // `self.calls >= self.warmup` with warmup bound to a number.
    for (const std::string &n : b.names) {
      if (n == c.name)
        continue;
      for (const py::Assignment &a : py.assignments)
        if (a.target == n && a.value.kind == py::ExprKind::Number && a.op == "=")
          return true;
    }
    return false;
  }

  static ArmSummary summarize(const Facts &facts, const py::Branch &b, LineRange arm) {
    ArmSummary s;
    if (!arm.valid())
      return s;
    const py::PythonFacts &py = facts.python;
    const rub::ArmWork work = rub::workIn(facts, b.function, arm);
    s.library = work.library;
    s.kernel = !work.kernels.empty();
    for (const py::Call *c : callsIn(py, b.function, arm)) {
      s.setup |= isSetupCall(*c);
      if (isCheap(*c))
        continue;
      s.computes = true;
      if (startsWith(c->resolved, "torch.") && !startsWith(c->resolved, "torch.cuda.") &&
          c->resolved.find("empty") == std::string::npos)
        s.torchMath = true;
    }
    for (const py::Assignment &a : py.assignments)
      if (inFunction(a.function, b.function) && contains(arm, a.lines))
        s.assigns = true;
    for (const py::OperatorUse &o : py.operators)
      if (inFunction(o.function, b.function) && contains(arm, o.lines))
        s.computes = s.library = s.torchMath = true;
    s.computes |= s.library || s.kernel;
    s.torchMath |= s.library;
    if (!s.computes)
      for (const py::SelfAccess &a : py.selfAccesses)
        if (!a.write && inFunction(a.function, b.function) && contains(arm, a.lines))
          s.readsState = true;
    return s;
  }

  static void judge(const Facts &facts, const py::Branch &b, const Counter &c, FindingSink &sink) {
    std::vector<ArmSummary> arms;
    for (LineRange arm : rub::armsOf(facts, b))
      arms.push_back(summarize(facts, b, arm));
    if (arms.empty())
      arms.push_back(summarize(facts, b, b.body));
    if (std::any_of(arms.begin(), arms.end(), [](const ArmSummary &a) { return a.setup; }))
      return; // one-time compile / autotune / graph capture: every call computes the same thing
    const auto any = [&](auto pred) { return std::any_of(arms.begin(), arms.end(), pred); };
    const bool someComputes = any([](const ArmSummary &a) { return a.computes; });
    if (!someComputes && !any([](const ArmSummary &a) { return a.assigns; }))
      return; // the count is only printed or logged
    std::string effect;
    std::optional<Confidence> confidence;
    std::string note;
    if (someComputes && any([](const ArmSummary &a) { return !a.computes && a.readsState; })) {
      effect = "some calls return stored results without computing";
    } else if (any([](const ArmSummary &a) { return a.torchMath && !a.kernel; }) &&
               any([](const ArmSummary &a) { return a.kernel; })) {
      effect = "some calls compute with torch operators and others with the authored kernel";
    } else {
      effect = "the count selects different code";
      confidence = Confidence::Low;
      note = "what the arms compute differently is not visible statically";
    }
    sink.report(b.lines,
                {{"counter", c.name},
                 {"effect", effect},
                 {"increment", "line " + std::to_string(c.increment.begin) + " in " + c.function}},
                note, confidence);
  }
};

} // namespace

std::unique_ptr<Check> makeRub004() { return std::make_unique<Rub004>(); }

} // namespace kbaudit::rules
