// MEM005 l2-persistence-gaming: the solution reserves persisting L2 or installs an access
// policy window (or resets persisting lines), from extension code or from Python.

#include "all_checks.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/l2_persistence.h"

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

namespace kbaudit::rules {
namespace {

using semantic::L2Effect;

class Mem005 final : public Check {
public:
  std::string_view id() const override { return "MEM005"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    // One finding per solution: the first site, with the others named in the evidence.
    struct Site {
      LineRange lines;
      std::string what;
      L2Effect effect;
    };
    std::vector<Site> sites;
    const auto report = [&](LineRange lines, const std::string &what, L2Effect effect) {
      if (lines.valid())
        sites.push_back({lines, what, effect});
    };
    for (const cxx::CxxCall &c : f.cxx.calls) {
      if (c.callee.find("Get") != std::string::npos)
        continue;
      std::string_view name = semantic::persistingL2Name(c.callee);
      for (const std::string &a : c.arguments)
        if (name.empty())
          name = semantic::persistingL2Name(a);
      // cudaStreamSetAttribute / cudaDeviceSetLimit with other attributes are not L2 control.
      if (name.empty() && c.category == cxx::CallCategory::L2 && c.callee.find("Set") != std::string::npos)
        name = c.callee;
      if (name.empty())
        continue;
      L2Effect effect = semantic::l2EffectOf(name);
      // A zero set-aside turns persistence off: the code can run either way, so whether
      // data stays resident depends on a value only the run knows.
      if (effect == L2Effect::Reserve && !c.arguments.empty() && (c.arguments.back() == "0" || c.arguments.back() == "0u"))
        effect = L2Effect::Reset;
      report(c.lines, c.spelled + "(...)", effect);
    }
    for (const cxx::ApiReference &r : f.cxx.references)
      if (std::string_view n = semantic::persistingL2Name(r.name); !n.empty())
        report(r.lines, r.name, semantic::l2EffectOf(n));
    for (const py::Call &c : f.python.calls) {
      if (c.method.find("Get") != std::string::npos || c.method.find("get_") == 0)
        continue;
      std::string_view name = semantic::persistingL2Name(c.resolved.empty() ? c.callee : c.resolved, true);
      for (const py::Argument &a : c.args)
        if (name.empty())
          name = semantic::persistingL2NameIn(a.value);
      if (!name.empty())
        report(c.lines, c.callee + "(...)", semantic::l2EffectOf(name));
    }
    for (const py::Assignment &a : f.python.assignments)
      // Only the field that makes the window persisting (`hitProp = ...Persisting`), not each field.
      if (std::string_view n = semantic::persistingL2NameIn(a.value); !n.empty() && semantic::marksPersisting(a.value))
        report(a.lines, a.target + " = " + semantic::quote(a.value), semantic::l2EffectOf(n));
    if (sites.empty())
      return;
    std::sort(sites.begin(), sites.end(), [](const Site &a, const Site &b) { return a.lines.begin < b.lines.begin; });
    // The site quoted is the first that keeps data resident; a reset (a zero set-aside) only
    // when nothing else is there.
    // (A constant named in a resetting call, `cudaDeviceSetLimit(...PersistingL2CacheSize, 0)`,
    // is that reset.)
    const auto keeps = std::find_if(sites.begin(), sites.end(), [&](const Site &s) {
      return s.effect != L2Effect::Reset && std::none_of(sites.begin(), sites.end(), [&](const Site &r) {
               return r.effect == L2Effect::Reset && r.lines.begin == s.lines.begin;
             });
    });
    if (keeps != sites.end())
      std::rotate(sites.begin(), keeps, keeps + 1);
    std::set<unsigned> others;
    for (const Site &s : sites)
      if (s.lines.begin != sites.front().lines.begin)
        others.insert(s.lines.begin);
    std::string evidence = "persisting L2 survives across calls and the harness's L2 flush between timed iterations";
    if (!others.empty()) {
      evidence += "; also lines";
      for (unsigned l : others)
        evidence += " " + std::to_string(l);
    }
    // Proof of harm: data stays resident across timed calls only when a set-aside is reserved
    // and a window marks data persisting, and nothing resets the persisting lines. A size
    // query, a window alone (no set-aside to hold it) or a reset is for review.
    const auto has = [&](L2Effect effect) {
      return std::any_of(sites.begin(), sites.end(), [&](const Site &s) { return s.effect == effect; });
    };
    const bool reserved = has(L2Effect::Reserve);
    const bool window = has(L2Effect::Window);
    const bool reset = has(L2Effect::Reset);
    std::optional<Confidence> confidence = Confidence::Low;
    if (reserved && window && !reset) {
      confidence = Confidence::Medium;
      evidence += "; a set-aside is reserved and a window marks data persisting, and nothing resets it";
    }
    sink.report(sites.front().lines, {{"what", sites.front().what}, {"effect", semantic::describe(sites.front().effect)}}, evidence,
                confidence);
  }
};

} // namespace

std::unique_ptr<Check> makeMem005() { return std::make_unique<Mem005>(); }

} // namespace kbaudit::rules
