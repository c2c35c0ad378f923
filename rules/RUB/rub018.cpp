// RUB018 detected-call-stall: the solution tells the harness's warm-up (or first) calls apart by
// an input's address, identity or version, or by counting its calls, and sleeps or busy-waits on
// them, so the harness sizes and reads its benchmark from a delay the solution chose.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/semantic/arm_work.h"
#include "kbaudit/semantic/call_counters.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/identity_cache.h"
#include "kbaudit/semantic/input_aliases.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace kbaudit::rules {
namespace {

using rubscope::GradedScope;

bool isClock(std::string_view resolved) {
  static const std::set<std::string_view> clocks = {"time.perf_counter", "time.perf_counter_ns", "time.time",
                                                     "time.time_ns",      "time.monotonic",       "time.monotonic_ns",
                                                     "time.process_time", "time.thread_time"};
  return clocks.count(resolved) > 0;
}

/// A call that spends time on purpose: a sleep on the host, or a spin kernel on the device.
bool isSleep(std::string_view resolved) {
  return resolved == "time.sleep" || resolved == "torch.cuda._sleep" || resolved == "asyncio.sleep";
}

/// The first stall in `lines` of `function`: a sleep, or a `while` loop whose test reads a
/// clock; helpers of the file the lines call are followed one level.
std::optional<std::string> stallIn(const Facts &f, const GradedScope &scope, const std::string &function,
                                   LineRange lines, int depth = 0) {
  for (const py::Call *c : rubscope::callsIn(f.python, function, lines))
    if (isSleep(c->resolved))
      return "calls " + c->resolved + " (" + pytext::lineText(c->lines) + ")";
  for (const py::Branch &b : f.python.branches)
    if (b.kind == "while" && rubscope::inFunction(b.function, function) && rubscope::contains(lines, b.lines) &&
        std::any_of(b.calls.begin(), b.calls.end(), [](const std::string &c) { return isClock(c); }))
      return "busy-waits on the clock (" + pytext::lineText(b.lines) + ")";
  if (depth > 0)
    return std::nullopt;
  for (const py::Call *c : rubscope::callsIn(f.python, function, lines)) {
    const std::string callee = scope.calleeFunction(function, *c);
    if (const py::Function *helper = callee.empty() ? nullptr : f.python.findFunction(callee))
      if (auto inner = stallIn(f, scope, helper->qualname, helper->lines, depth + 1))
        return "calls " + helper->qualname + ", which " + *inner;
  }
  return std::nullopt;
}

class Rub018 final : public Check {
public:
  std::string_view id() const override { return "RUB018"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const GradedScope scope(f);
    const std::vector<semantic::CallCounter> counters = semantic::perCallCounters(f, scope);
    std::map<const py::Function *, std::set<std::string>> inputs;
    std::set<std::pair<unsigned, unsigned>> gated;
    for (const py::Branch &b : f.python.branches) {
      if ((b.kind != "if" && b.kind != "elif") || !scope.graded(b.function, b.lines))
        continue;
      const py::Function *fn = f.python.findFunction(b.function);
      if (!fn)
        continue;
      const std::optional<std::string> detector = detectorOf(f, *fn, b, counters, inputs);
      if (!detector)
        continue;
      for (LineRange arm : semantic::armsOf(f, b)) {
        if (!arm.valid())
          continue;
        const std::optional<std::string> stall = stallIn(f, scope, b.function, arm);
        if (!stall || !gated.insert({arm.begin, arm.end}).second)
          continue;
        sink.report(arm,
                    {{"function", b.function},
                     {"stall", *stall},
                     {"detector", *detector},
                     {"effect", "the harness's warm-up or first calls take as long as the solution decides, so "
                                "its time estimate and the number of timed calls it runs are the solution's"}});
      }
    }
    reportUngated(f, scope, gated, sink);
  }

private:
  /// What `b`'s test tells calls apart by: an input's identity, address or version against
  /// state kept across calls, or a per-call counter against a threshold.
  static std::optional<std::string> detectorOf(const Facts &f, const py::Function &fn, const py::Branch &b,
                                               const std::vector<semantic::CallCounter> &counters,
                                               std::map<const py::Function *, std::set<std::string>> &inputs) {
    if (const semantic::CallCounter *c = semantic::counterIn(b, counters); c && semantic::isThreshold(f.python, b, *c))
      return "counting its calls (" + c->name + ")";
    if (!semantic::testReadsState(f.python, b))
      return std::nullopt;
    auto it = inputs.find(&fn);
    if (it == inputs.end())
      it = inputs.emplace(&fn, semantic::inputAliases(f.python, fn)).first;
    if (it->second.empty())
      return std::nullopt;
    const std::vector<semantic::CacheKey> keys = semantic::cacheKeys(f.python, fn, b, it->second);
    if (keys.empty())
      return std::nullopt;
    const bool pointer = std::any_of(keys.begin(), keys.end(),
                                     [](const semantic::CacheKey &k) { return k.has(semantic::KeyKind::Pointer); });
    return pointer ? "an input's data pointer seen before" : "an input's identity or version seen before";
  }

  /// Sleeps on the graded path that no detecting test gates: listed for review.
  static void reportUngated(const Facts &f, const GradedScope &scope, const std::set<std::pair<unsigned, unsigned>> &gated,
                            FindingSink &sink) {
    for (const py::Call &c : f.python.calls) {
      if (!isSleep(c.resolved) || !scope.graded(c.function, c.lines) || c.function.empty())
        continue;
      if (std::any_of(gated.begin(), gated.end(),
                      [&](const auto &g) { return g.first <= c.lines.begin && c.lines.end <= g.second; }))
        continue;
      sink.report(c.lines,
                  {{"function", c.function},
                   {"stall", "calls " + c.resolved},
                   {"detector", "no test the facts show"},
                   {"effect", "the graded call waits for nothing it computes"}},
                  "no test of an input's identity, address or version, or of a call counter, gates it: which calls "
                  "it slows is not shown",
                  Confidence::Low);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeRub018() { return std::make_unique<Rub018>(); }

} // namespace kbaudit::rules
