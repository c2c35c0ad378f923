#pragma once

// Runtime probes confirm, clear or add findings: a probe finding under a rule raises that
// rule's static findings to high confidence (or adds one when the rule was silent); a probe
// that passed, as judged outside the solution's process (ProbeOutcome::verified), lowers the
// static findings of the rules it answers (their `runtime: cleared_by`) to low (a cache that is
// invalidated correctly is not a hack); a pass only the solution's own process reports clears
// nothing. Runtime events are evidence for the rule whose `runtime: events` lists their kind
// (eventRule; grader files read or changed are RUB002, a forged or self-contradicting answer
// RUB012). Which rule an outcome or event speaks to is the rule metadata's to say
// (rules/runtime_links.h), not this file's.

#include "kbaudit/rules/finding.h"
#include "kbaudit/runtime/probe.h"

#include <optional>
#include <string_view>

namespace kbaudit::annotations {

void applyRuntime(rules::RuleResults &results, const runtime::RuntimeReport &report);

/// The rule a runtime event of this kind is evidence for; "" for kinds that add no finding
/// (write-outside, delete, process, network: reported in the runtime block only).
std::string_view eventRule(std::string_view kind);

/// How sure an event is (its own `confidence`; grader-file and grader-changed, which carry none,
/// are high); nullopt for events that add no finding.
std::optional<rules::Confidence> eventConfidence(const runtime::RuntimeEvent &event);

} // namespace kbaudit::annotations
