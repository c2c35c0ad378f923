// RUB004 call-count-gating: forward counts its calls and computes something different once
// the count passes a threshold (exact during the first, checked calls; cached or approximate
// during the timed ones).

#include "all_checks.h"
#include "semantic_names.h"
#include "kbaudit/semantic/arm_work.h"
#include "kbaudit/semantic/call_counters.h"
#include "kbaudit/semantic/graded_scope.h"

#include <algorithm>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rubscope;

using semantic::ArmEffects;
using Counter = semantic::CallCounter;

class Rub004 final : public Check {
public:
  std::string_view id() const override { return "RUB004"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &facts = ctx.facts;
    const GradedScope scope(facts);
    const std::vector<Counter> counters = semantic::perCallCounters(facts, scope);
    if (counters.empty())
      return;
    for (const py::Branch &b : facts.python.branches) {
      if (std::find(b.tags.begin(), b.tags.end(), py::ConditionTag::CallCounter) == b.tags.end())
        continue;
      if (!scope.graded(b.function, b.lines))
        continue;
      const Counter *c = semantic::counterIn(b, counters);
      if (!c || !semantic::isThreshold(facts.python, b, *c))
        continue;
      judge(facts, b, *c, sink);
    }
  }

private:
  static void judge(const Facts &facts, const py::Branch &b, const Counter &c, FindingSink &sink) {
    std::vector<ArmEffects> arms;
    for (LineRange arm : semantic::armsOf(facts, b))
      arms.push_back(semantic::effectsOf(facts, b.function, arm));
    if (arms.empty())
      arms.push_back(semantic::effectsOf(facts, b.function, b.body));
    if (std::any_of(arms.begin(), arms.end(), [](const ArmEffects &a) { return a.setup; }))
      return; // one-time compile / autotune / graph capture: every call computes the same thing
    const auto any = [&](auto pred) { return std::any_of(arms.begin(), arms.end(), pred); };
    const bool someComputes = any([](const ArmEffects &a) { return a.computes; });
    if (!someComputes && !any([](const ArmEffects &a) { return a.assigns; }))
      return; // the count is only printed or logged
    std::string effect;
    std::optional<Confidence> confidence;
    std::string note;
    if (someComputes && any([](const ArmEffects &a) { return !a.computes && a.readsState; })) {
      effect = "some calls return stored results without computing";
    } else if (any([](const ArmEffects &a) { return a.torchMath && !a.kernel; }) &&
               any([](const ArmEffects &a) { return a.kernel; })) {
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
