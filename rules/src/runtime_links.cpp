#include "kbaudit/rules/runtime_links.h"

#include <algorithm>
#include <string>

namespace kbaudit::rules {

namespace {

bool lists(const std::vector<std::string> &items, std::string_view item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

} // namespace

const RuleMeta *ruleConfirmedBy(std::string_view probe, std::string_view observation) {
  std::string key(probe);
  if (!observation.empty())
    key += "/" + std::string(observation);
  for (const RuleMeta &m : catalogue())
    if (lists(m.runtime.confirmedBy, key))
      return &m;
  return nullptr;
}

const RuleMeta *ruleForEvent(std::string_view kind) {
  for (const RuleMeta &m : catalogue())
    if (lists(m.runtime.events, kind))
      return &m;
  return nullptr;
}

bool clearedBy(const RuleMeta &rule, std::string_view probe) { return lists(rule.runtime.clearedBy, probe); }

bool explains(const RuleMeta &rule, std::string_view probe) { return lists(rule.runtime.explains, probe); }

} // namespace kbaudit::rules
