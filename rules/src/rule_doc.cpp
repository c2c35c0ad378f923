#include "kbaudit/rules/rule_meta.h"

namespace kbaudit::rules {

namespace {

void section(std::string &out, const char *title, const std::string &body) {
  if (body.empty())
    return;
  out += "## ";
  out += title;
  out += "\n\n";
  out += body;
  out += "\n\n";
}

std::string quotedList(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &i : items)
    out += (out.empty() ? "`" : ", `") + i + "`";
  return out;
}

/// The `runtime:` links as sentences: which probe outcomes and events confirm the rule, which
/// verified passes clear it, which probes' findings it explains.
std::string runtimeSection(const RuntimeLinks &r) {
  std::string out;
  const auto line = [&out](const std::string &text) { out += (out.empty() ? "" : "\n") + text; };
  if (!r.confirmedBy.empty())
    line("- Confirmed by a finding of: " + quotedList(r.confirmedBy) +
         " (a `probe/observation` is that observation of the probe; the probes are described in "
         "[runtime.md](../runtime.md#the-probes)).");
  if (!r.clearedBy.empty())
    line("- Cleared (its static findings lowered to review) by a pass of " + quotedList(r.clearedBy) +
         " judged outside the solution's process.");
  if (!r.explains.empty())
    line("- One cause, one rule: when it is confirmed, the findings of " + quotedList(r.explains) +
         " are its consequences and are attributed to no other rule.");
  if (!r.events.empty())
    line("- Runtime events that are evidence for it: " + quotedList(r.events) + ".");
  return out;
}

} // namespace

std::string renderRuleDoc(const RuleMeta &m) {
  std::string out = "<!-- Generated from rules/" + m.category + "/" + m.id +
                    ".yaml and tests/fixtures/" + m.id + "/ by `kbaudit docs`; do not edit. -->\n";
  out += "# " + m.id + " " + m.name + "\n\n";
  out += "| | |\n|---|---|\n";
  out += "| category | `" + m.category + "` |\n";
  out += "| verdict class | `" + std::string(verdictClassName(m.verdict)) + "` |\n";
  out += "| default confidence | " + std::string(confidenceName(m.confidence)) + " |\n";
  out += "| contract term | `" + std::string(problems::termName(m.term)) + "` (" +
         (problems::universalTerm(m.term) ? "the grader's own check: a hack under every suite profile"
                                          : "what it costs depends on the suite: [docs/suites](../suites)") +
         ") |\n";
  std::string needs;
  for (const auto &n : m.needs)
    needs += (needs.empty() ? "" : ", ") + n;
  out += "| needs | " + (needs.empty() ? std::string("python") : needs) + " |\n\n";
  section(out, "What it flags", m.summary);
  // Proof of harm: what a decisive finding claims and what it takes to claim it.
  section(out, "Consequence", "The harm a decisive finding establishes: " + m.consequence);
  section(out, "Decisive when",
          m.decisiveWhen + "\n\nAnything less is reported at low confidence, for review; runtime "
                           "evidence that answers the rule's question confirms or clears it.");
  if (m.restsOnAbsence)
    section(out, "When part of the solution was not analysed",
            "This finding rests on something not being there. Where kbaudit could not see all of the "
            "solution (a parser or evaluator limit, a front end that gave up; the annotation says "
            "`complete: false`), the part it missed may hold what is absent, so the finding is left "
            "for review and the run is `bug` unless another finding decides it.");
  section(out, "Runtime evidence", runtimeSection(m.runtime));
  section(out, "Why it matters", m.rationale);
  section(out, "What it means for the score", m.implication);
  section(out, "Message", "`" + m.message + "`");
  if (!m.references.empty()) {
    std::string refs;
    for (const auto &r : m.references)
      refs += "- " + r + "\n";
    refs.pop_back();
    section(out, "References", refs);
  }
  if (!m.examples.empty()) {
    out += "## Examples\n\n";
    out += "Lines marked `# expect: " + m.id + "` are the ones the rule flags; files named `good_*` "
           "(including near-misses) must stay quiet. These are the rule's test fixtures.\n\n";
    for (const RuleExample &ex : m.examples) {
      out += "### " + std::string(ex.bad ? "Flagged" : "Not flagged") + ": `" + ex.file + "`\n\n";
      out += "```python\n" + ex.content;
      if (!ex.content.empty() && ex.content.back() != '\n')
        out += '\n';
      out += "```\n\n";
    }
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

} // namespace kbaudit::rules
