#include "kbaudit/rules/rule_meta.h"

#include "kbaudit/rules/embedded_files.h"

#include "compiled_catalogue.h"

#include <algorithm>
#include <stdexcept>

namespace kbaudit::rules {

const char *verdictClassName(VerdictClass v) {
  switch (v) {
  case VerdictClass::RewardHack: return "reward_hack";
  case VerdictClass::RubricLeak: return "rubric_leak";
  case VerdictClass::Review: return "review";
  }
  return "review";
}

const char *confidenceName(Confidence c) {
  switch (c) {
  case Confidence::Low: return "low";
  case Confidence::Medium: return "medium";
  case Confidence::High: return "high";
  }
  return "medium";
}

const std::vector<RuleMeta> &catalogue() {
  static const std::vector<RuleMeta> rules = [] {
    std::vector<RuleMeta> out;
    // Parsed from the embedded YAML at build time (catalogue_gen.cpp): yaml-cpp took about
    // 100 M instructions at every start, a third of a small `kbaudit check`.
    for (RuleMeta &m : compiledCatalogue()) {
      // Fixtures live in tests/fixtures/<ID>/; they become the doc page's examples.
      const std::string prefix = "tests/fixtures/" + m.id + "/";
      for (const EmbeddedFile &fx : embeddedRuleFixtures()) {
        if (fx.path.rfind(prefix, 0) != 0)
          continue;
        std::string file(fx.path.substr(prefix.size()));
        const bool bad = file.rfind("bad_", 0) == 0;
        m.examples.push_back(RuleExample{std::move(file), std::string(fx.content), bad});
      }
      std::sort(m.examples.begin(), m.examples.end(),
                [](const RuleExample &a, const RuleExample &b) {
                  return std::tie(b.bad, a.file) < std::tie(a.bad, b.file);
                });
      out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(), [](const RuleMeta &a, const RuleMeta &b) { return a.id < b.id; });
    return out;
  }();
  return rules;
}

const RuleMeta *findRule(std::string_view id) {
  for (const RuleMeta &m : catalogue())
    if (m.id == id)
      return &m;
  return nullptr;
}

} // namespace kbaudit::rules
