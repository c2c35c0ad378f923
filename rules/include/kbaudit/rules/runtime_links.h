#pragma once

// Which rule a piece of runtime evidence speaks to, answered from the rules' metadata
// (`runtime:` in rules/<CATEGORY>/<ID>.yaml, RuleMeta::runtime). The probes and the event
// recorder describe what they saw; the catalogue alone turns that into rules, so the probe
// package, the judge and the annotation writer hold no table of rule ids.

#include "kbaudit/rules/rule_meta.h"

#include <string_view>

namespace kbaudit::rules {

/// The rule whose `confirmed_by` lists `probe/observation`, or the plain `probe` when the
/// observation is empty; nullptr when no rule does (a probe's outcome that is evidence for none).
const RuleMeta *ruleConfirmedBy(std::string_view probe, std::string_view observation);

/// The rule whose `events` lists `kind`; nullptr when none (a write to /tmp says nothing about
/// the score).
const RuleMeta *ruleForEvent(std::string_view kind);

/// Whether a verified pass of `probe` answers `rule`'s question (its `cleared_by`).
bool clearedBy(const RuleMeta &rule, std::string_view probe);

/// Whether `rule`'s confirmed finding explains `probe`'s finding (its `explains`).
bool explains(const RuleMeta &rule, std::string_view probe);

} // namespace kbaudit::rules
