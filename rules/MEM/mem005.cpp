// MEM005 l2-persistence-gaming: the solution reserves persisting L2 or installs an access
// policy window (or resets persisting lines), from extension code or from Python.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/semantic/expr_query.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <vector>

namespace kbaudit::rules {
namespace {

/// API names and constants that set, pin or reset persisting L2 (not the ones that read its size).
constexpr std::array<std::string_view, 8> kPersistNames = {
    "cudaLimitPersistingL2CacheSize", "cudaStreamAttributeAccessPolicyWindow", "cudaAccessPropertyPersisting",
    "cudaCtxResetPersistingL2Cache",  "CU_LIMIT_PERSISTING_L2_CACHE_SIZE",      "CU_ACCESS_PROPERTY_PERSISTING",
    "cuCtxResetPersistingL2Cache",    "CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW"};

std::string_view persistName(std::string_view text, bool pythonSpellings = false) {
  // Reading the limits (to size a tile or a window) does not change the cache.
  for (std::string_view read : {"MaxPersisting", "MAX_PERSISTING", "persistingL2CacheMaxSize", "MaxWindowSize",
                                "MaxAccessPolicyWindow", "GetLimit", "GetAttribute"})
    if (text.find(read) != std::string_view::npos)
      return {};
  for (std::string_view n : kPersistNames)
    if (text.find(n) != std::string_view::npos)
      return n;
  // Python spellings (cuda-python enums, ctypes constants): `cudaLimit.cudaLimitPersistingL2CacheSize`,
  // `accessPolicyWindow.hitProp`.
  if (!pythonSpellings)
    return {};
  for (std::string_view n : {"PersistingL2CacheSize", "AccessPolicyWindow", "accessPolicyWindow", "ResetPersistingL2Cache"})
    if (text.find(n) != std::string_view::npos)
      return n;
  return {};
}

/// What a Python expression spells: the names and dotted chains it reads and, for a string
/// literal holding one identifier (`getattr(cudart, "cudaLimitPersistingL2CacheSize")`), that
/// identifier; never its comments, nor a source string that merely mentions the API.
std::string spelledNames(const py::Expr &e) {
  std::string out;
  for (const std::string &n : e.names)
    out += n + " ";
  if (e.kind == py::ExprKind::String && e.string && !e.string->value.empty() &&
      std::all_of(e.string->value.begin(), e.string->value.end(), pytext::isIdentChar))
    out += e.string->value;
  return out;
}

/// What a site does to persisting L2; a zero set-aside turns persistence off like a reset.
enum class Effect { Reserve, Window, Reset };

Effect effectOf(std::string_view name) {
  if (name.find("Reset") != std::string_view::npos)
    return Effect::Reset;
  if (name.find("Limit") != std::string_view::npos || name.find("LIMIT") != std::string_view::npos ||
      name.find("CacheSize") != std::string_view::npos)
    return Effect::Reserve;
  return Effect::Window;
}

std::string describe(Effect e) {
  switch (e) {
  case Effect::Reserve: return "reserves a persisting L2 set-aside";
  case Effect::Reset: return "resets persisting L2 lines";
  case Effect::Window: break;
  }
  return "installs an access-policy window that keeps data resident in L2";
}

class Mem005 final : public Check {
public:
  std::string_view id() const override { return "MEM005"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    // One finding per solution: the first site, with the others named in the evidence.
    struct Site {
      LineRange lines;
      std::string what;
      Effect effect;
    };
    std::vector<Site> sites;
    const auto report = [&](LineRange lines, const std::string &what, Effect effect) {
      if (lines.valid())
        sites.push_back({lines, what, effect});
    };
    for (const cxx::CxxCall &c : f.cxx.calls) {
      if (c.callee.find("Get") != std::string::npos)
        continue;
      std::string_view name = persistName(c.callee);
      for (const std::string &a : c.arguments)
        if (name.empty())
          name = persistName(a);
      // cudaStreamSetAttribute / cudaDeviceSetLimit with other attributes are not L2 control.
      if (name.empty() && c.category == cxx::CallCategory::L2 && c.callee.find("Set") != std::string::npos)
        name = c.callee;
      if (name.empty())
        continue;
      Effect effect = effectOf(name);
      // A zero set-aside turns persistence off: the code can run either way, so whether
      // data stays resident depends on a value only the run knows.
      if (effect == Effect::Reserve && !c.arguments.empty() && (c.arguments.back() == "0" || c.arguments.back() == "0u"))
        effect = Effect::Reset;
      report(c.lines, c.spelled + "(...)", effect);
    }
    for (const cxx::ApiReference &r : f.cxx.references)
      if (std::string_view n = persistName(r.name); !n.empty())
        report(r.lines, r.name, effectOf(n));
    for (const py::Call &c : f.python.calls) {
      if (c.method.find("Get") != std::string::npos || c.method.find("get_") == 0)
        continue;
      std::string_view name = persistName(c.resolved.empty() ? c.callee : c.resolved, true);
      for (const py::Argument &a : c.args)
        if (name.empty())
          name = persistName(spelledNames(a.value), true);
      if (!name.empty())
        report(c.lines, c.callee + "(...)", effectOf(name));
    }
    for (const py::Assignment &a : f.python.assignments) {
      // Only the field that makes the window persisting (`hitProp = ...Persisting`), not each field.
      const std::string spelled = spelledNames(a.value);
      if (std::string_view n = persistName(spelled, true);
          !n.empty() && (spelled.find("Persist") != std::string::npos || spelled.find("PERSIST") != std::string::npos))
        report(a.lines, a.target + " = " + semantic::quote(a.value), effectOf(n));
    }
    if (sites.empty())
      return;
    std::sort(sites.begin(), sites.end(), [](const Site &a, const Site &b) { return a.lines.begin < b.lines.begin; });
    // The site quoted is the first that keeps data resident; a reset (a zero set-aside) only
    // when nothing else is there.
    // (A constant named in a resetting call, `cudaDeviceSetLimit(...PersistingL2CacheSize, 0)`,
    // is that reset.)
    const auto keeps = std::find_if(sites.begin(), sites.end(), [&](const Site &s) {
      return s.effect != Effect::Reset && std::none_of(sites.begin(), sites.end(), [&](const Site &r) {
               return r.effect == Effect::Reset && r.lines.begin == s.lines.begin;
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
    const auto has = [&](Effect effect) {
      return std::any_of(sites.begin(), sites.end(), [&](const Site &s) { return s.effect == effect; });
    };
    const bool reserved = has(Effect::Reserve);
    const bool window = has(Effect::Window);
    const bool reset = has(Effect::Reset);
    std::optional<Confidence> confidence = Confidence::Low;
    if (reserved && window && !reset) {
      confidence = Confidence::Medium;
      evidence += "; a set-aside is reserved and a window marks data persisting, and nothing resets it";
    }
    sink.report(sites.front().lines, {{"what", sites.front().what}, {"effect", describe(sites.front().effect)}}, evidence,
                confidence);
  }
};

} // namespace

std::unique_ptr<Check> makeMem005() { return std::make_unique<Mem005>(); }

} // namespace kbaudit::rules
