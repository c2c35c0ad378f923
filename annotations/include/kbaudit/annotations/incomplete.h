#pragma once

// Runs kbaudit could not see whole. A parser nesting limit, an evaluator budget (pieces of a
// joined string, an expression it cannot fold), a front end that gave up or crashed, a retry
// without the C++/CUDA front end: each leaves part of the solution unseen, and a hack placed
// there must not come out `clean`. Such a run is `complete: false` with the reasons; a finding
// that rests on an absence is left for review (the unseen part may hold what is absent); a
// finding that rests on what was seen still decides; with none, the verdict is `bug`.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/facts.h"
#include "kbaudit/rules/finding.h"

#include <string>
#include <vector>

namespace kbaudit::annotations {

/// Why the facts do not cover the whole solution, one sentence per kind of gap (a repeated kind
/// is counted, not listed), from the front ends' diagnostics and parse reports.
std::vector<std::string> visibilityGaps(const Facts &facts);

/// Lowers to low confidence, with a note in the evidence, every finding whose rule rests on an
/// absence (`rests_on: absence`).
void lowerAbsenceFindings(std::vector<rules::Finding> &findings);

/// Records `why` (non-empty) on a synthesized annotation: `complete: false`, the reasons, an
/// `analysis-incomplete` diagnostic each, and a verdict that is never `clean` (then `bug`);
/// a decided verdict keeps its class and says what was not seen.
void markIncomplete(Annotation &a, const std::vector<std::string> &why);

} // namespace kbaudit::annotations
