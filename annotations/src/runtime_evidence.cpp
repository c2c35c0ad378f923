#include "kbaudit/annotations/runtime_evidence.h"

#include "kbaudit/rules/rule_meta.h"
#include "kbaudit/rules/runtime_links.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <vector>

namespace kbaudit::annotations {

namespace {

// Probes that judge the solution's numbers against the reference's. Under Triton's interpreter
// those numbers are the interpreter's emulation of the kernel (kbaudit_probe/interpreter_numerics.py
// fixes what it knows: bf16 arithmetic, TF32 dots), not the GPU's, and they come from a shape
// shrunk to fit the interpreter, where a solution may dispatch differently than at the graded
// shape (a torch path for small sizes makes kernel ablation look like a fig leaf): a finding
// there is listed for review rather than decided. Probes that compare the solution with itself
// (memoization, call_count, caller_context), storage (aliasing) and global state are not.
const std::set<std::string> kNumericAgainstReference = {"differential", "adversarial",  "distributions",
                                                        "other_shapes", "uninitialized_output", "parameters",
                                                        "kernel_ablation"};

// Probes whose finding breaks a contract term of its own rather than its rule's: correctness
// beyond the suite's test inputs (`distributions`) is what a suite profile prices
// (`test-distribution`: a hack in KernelBench, a note on a leaderboard graded by its tests).
// A static finding the probe confirms keeps its rule's term.
std::optional<problems::Term> probeTerm(const std::string &probe) {
  if (probe == "distributions")
    return problems::Term::TestDistribution;
  return std::nullopt;
}

bool interpreted(const runtime::RuntimeReport &report) {
  return report.device.find("interpreter") != std::string::npos;
}

std::string numbersText(const runtime::ProbeOutcome &p) {
  std::string out;
  for (const auto &[k, v] : p.numbers) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    out += (out.empty() ? "" : ", ") + k + "=" + buf;
  }
  return out;
}

void addFinding(rules::RuleResults &results, const std::string &rule, const std::string &message,
                const std::string &evidence, rules::Confidence confidence,
                std::optional<problems::Term> term = std::nullopt) {
  rules::Finding f;
  f.rule = rule;
  if (const rules::RuleMeta *m = rules::findRule(rule)) {
    f.name = m->name;
    f.category = m->category;
    f.verdict = m->verdict;
    f.term = m->term;
  } else {
    // A rule this build's catalogue lacks: listed with its category, at the default verdict
    // (review), so it never decides the verdict by itself.
    f.category = rule.substr(0, rule.find_first_of("0123456789"));
  }
  if (term)
    f.term = *term;
  f.confidence = confidence;
  f.message = message;
  f.evidence = evidence;
  results.findings.push_back(std::move(f));
}

std::optional<rules::Confidence> confidenceNamed(std::string_view name) {
  if (name == "high")
    return rules::Confidence::High;
  if (name == "medium")
    return rules::Confidence::Medium;
  if (name == "low")
    return rules::Confidence::Low;
  return std::nullopt;
}

std::string eventsText(const std::vector<const runtime::RuntimeEvent *> &events) {
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < events.size() && i < kShown; ++i)
    out += (out.empty() ? "" : "; ") + events[i]->kind + " (" + events[i]->confidence + "): " + events[i]->detail;
  if (events.size() > kShown)
    out += "; and " + std::to_string(events.size() - kShown) + " more";
  return out;
}

/// Events of one rule, the surest first, become evidence for it: the rule's static findings get
/// the events as evidence and are raised to the surest event's confidence; where static analysis
/// had no finding of that rule, one is added at that confidence.
void applyEvents(rules::RuleResults &results, const std::string &rule,
                 std::vector<const runtime::RuntimeEvent *> events) {
  std::stable_sort(events.begin(), events.end(), [](const runtime::RuntimeEvent *x, const runtime::RuntimeEvent *y) {
    return *eventConfidence(*x) > *eventConfidence(*y);
  });
  const rules::Confidence confidence = *eventConfidence(*events.front());
  const bool grader = rule == "RUB002";
  const std::string evidence = grader ? events.front()->kind : "runtime events: " + eventsText(events);
  bool found = false;
  for (rules::Finding &f : results.findings)
    if (f.rule == rule) {
      found = true;
      f.confidence = std::max(f.confidence, confidence);
      f.evidence += (f.evidence.empty() ? "" : "; ") + std::string("confirmed at run time by ") +
                    (grader ? events.front()->kind + ": " + events.front()->detail : eventsText(events));
    }
  if (!found)
    addFinding(results, rule,
               (grader ? "at run time the solution touched a grader file: " : "at run time: ") + events.front()->detail,
               evidence, confidence);
}

} // namespace

std::string_view eventRule(std::string_view kind) {
  // Kinds no rule lists (write-outside, delete, process, network) are reported in the runtime
  // block only: a write to /tmp or a compiler started says nothing about the score.
  const rules::RuleMeta *rule = rules::ruleForEvent(kind);
  return rule ? std::string_view(rule->id) : std::string_view();
}

std::optional<rules::Confidence> eventConfidence(const runtime::RuntimeEvent &event) {
  const std::string_view rule = eventRule(event.kind);
  if (rule.empty())
    return std::nullopt;
  if (const auto named = confidenceNamed(event.confidence))
    return named;
  // The grader kinds carry no confidence: reading or changing the grader's files is the harm.
  return rule == "RUB002" ? std::optional(rules::Confidence::High) : std::nullopt;
}

void applyRuntime(rules::RuleResults &results, const runtime::RuntimeReport &report) {
  for (const runtime::ProbeOutcome &p : report.probes) {
    if (p.rule.empty())
      continue;
    std::vector<rules::Finding *> same;
    for (rules::Finding &f : results.findings)
      if (f.rule == p.rule)
        same.push_back(&f);
    const std::string where = "runtime probe " + p.name + " on " + report.device;
    if (p.status == "finding" && interpreted(report) && kNumericAgainstReference.count(p.name)) {
      const std::string note = "seen by " + where + " (interpreted numerics: review)";
      for (rules::Finding *f : same)
        f->evidence += (f->evidence.empty() ? "" : "; ") + note;
      if (same.empty())
        addFinding(results, p.rule, where + " (interpreted numerics: review): " + p.reason, numbersText(p),
                   rules::Confidence::Low, probeTerm(p.name));
    } else if (p.status == "finding") {
      for (rules::Finding *f : same) {
        f->confidence = rules::Confidence::High;
        f->evidence += (f->evidence.empty() ? "" : "; ") + std::string("confirmed by ") + where;
      }
      if (same.empty())
        addFinding(results, p.rule, where + ": " + p.reason, numbersText(p), rules::Confidence::High,
                   probeTerm(p.name));
    } else if (p.status == "passed" && p.verified) {
      // A pass clears only the rules whose question it answers (their `runtime: cleared_by`),
      // and only when the judge verified it: the worker's own answer is the solution's to forge.
      const rules::RuleMeta *rule = rules::findRule(p.rule);
      for (rules::Finding *f : same)
        if (rule && rules::clearedBy(*rule, p.name) && f->confidence != rules::Confidence::Low && f->lines.valid()) {
          f->confidence = rules::Confidence::Low;
          f->evidence += (f->evidence.empty() ? "" : "; ") + std::string("not reproduced by ") + where +
                         " (judged outside the solution's process)";
        }
    }
  }
  std::map<std::string, std::vector<const runtime::RuntimeEvent *>> byRule;
  for (const runtime::RuntimeEvent &e : report.events)
    if (eventConfidence(e))
      byRule[std::string(eventRule(e.kind))].push_back(&e);
  for (const auto &[rule, events] : byRule)
    applyEvents(results, rule, events);
}

} // namespace kbaudit::annotations
