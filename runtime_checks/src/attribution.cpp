// Which rule each probe outcome speaks to. The worker and the judge report what a probe
// observed; the rules' metadata (`runtime:` in rules/*/*.yaml) is the only table from that to
// rule ids, so a new probe or rule changes one YAML file, not the probe package, the judge and
// the annotation writer in step.

#include "kbaudit/rules/runtime_links.h"
#include "kbaudit/runtime/probe.h"

namespace kbaudit::runtime {

namespace {

bool decided(const ProbeOutcome &p) { return p.status == "passed" || p.status == "finding"; }

std::string spaced(std::string name) {
  for (char &c : name)
    if (c == '_')
      c = ' ';
  return name;
}

} // namespace

void attributeProbes(RuntimeReport &report) {
  for (ProbeOutcome &p : report.probes) {
    const rules::RuleMeta *rule = decided(p) ? rules::ruleConfirmedBy(p.name, p.check) : nullptr;
    p.rule = rule ? rule->id : "";
  }
  // One cause, one rule: a confirmed rule's finding takes the findings it explains (stale memory
  // makes the output wrong on plain inputs, or only on scaled ones when the allocator hands back
  // a buffer holding an earlier right answer: neither is a precision loss nor a regime switch).
  for (const ProbeOutcome &cause : report.probes) {
    const rules::RuleMeta *rule = cause.status == "finding" ? rules::findRule(cause.rule) : nullptr;
    if (!rule)
      continue;
    for (ProbeOutcome &p : report.probes)
      if (&p != &cause && p.status == "finding" && !p.rule.empty() && rules::explains(*rule, p.name)) {
        p.reason += "; explained by the " + spaced(cause.name) + " (" + rule->id + "), not " + p.rule;
        p.rule.clear();
      }
  }
}

} // namespace kbaudit::runtime
