#include "kbaudit/annotations/runtime_evidence.h"

#include "kbaudit/rules/rule_meta.h"

#include <algorithm>
#include <set>

namespace kbaudit::annotations {

namespace {

// Probes whose passing result answers their rule's question directly. Others (adversarial,
// timing) only ever add evidence.
const std::set<std::string> kClearing = {"differential", "memoization", "aliasing", "caller_context", "call_count"};

// Probes that judge the solution's numbers against the reference's. Under Triton's interpreter
// those numbers are the interpreter's emulation of the kernel (kbaudit_probe/interpreter_numerics.py
// fixes what it knows: bf16 arithmetic, TF32 dots), not the GPU's, and they come from a shape
// shrunk to fit the interpreter, where a solution may dispatch differently than at the graded
// shape (a torch path for small sizes makes kernel ablation look like a fig leaf): a finding
// there is listed for review rather than decided. Probes that compare the solution with itself
// (memoization, call_count, caller_context), storage (aliasing) and global state are not.
const std::set<std::string> kNumericAgainstReference = {"differential", "adversarial", "other_shapes",
                                                        "uninitialized_output", "parameters", "kernel_ablation"};

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
                const std::string &evidence, rules::Confidence confidence) {
  rules::Finding f;
  f.rule = rule;
  if (const rules::RuleMeta *m = rules::findRule(rule)) {
    f.name = m->name;
    f.category = m->category;
    f.verdict = m->verdict;
  }
  f.confidence = confidence;
  f.message = message;
  f.evidence = evidence;
  results.findings.push_back(std::move(f));
}

} // namespace

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
                   rules::Confidence::Low);
    } else if (p.status == "finding") {
      for (rules::Finding *f : same) {
        f->confidence = rules::Confidence::High;
        f->evidence += (f->evidence.empty() ? "" : "; ") + std::string("confirmed by ") + where;
      }
      if (same.empty())
        addFinding(results, p.rule, where + ": " + p.reason, numbersText(p), rules::Confidence::High);
    } else if (p.status == "passed" && kClearing.count(p.name)) {
      for (rules::Finding *f : same)
        if (f->confidence != rules::Confidence::Low && f->lines.valid()) {
          f->confidence = rules::Confidence::Low;
          f->evidence += (f->evidence.empty() ? "" : "; ") + std::string("not reproduced by ") + where;
        }
    }
  }
  for (const runtime::RuntimeEvent &e : report.events)
    if (e.kind == "grader-file" || e.kind == "grader-changed") {
      addFinding(results, "RUB002", "at run time the solution touched a grader file: " + e.detail, e.kind,
                 rules::Confidence::High);
      break;
    }
}

} // namespace kbaudit::annotations
