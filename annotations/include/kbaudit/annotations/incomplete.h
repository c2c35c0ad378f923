#pragma once

// Runs kbaudit could not see whole. A parser nesting limit, an evaluator budget (pieces of a
// joined string, an expression it cannot fold), Python that does not parse, no graded entry
// point, C++/CUDA whose errors hide code, a front end that gave up or crashed, a retry without
// the C++/CUDA front end: each leaves part of the solution unseen, and a hack placed
// there must not come out `clean`. Such a run is `complete: false` with the reasons; a finding
// that rests on an absence is left for review (the unseen part may hold what is absent); a
// finding that rests on what was seen still decides; with none, the verdict is `bug`.

#include "kbaudit/annotations/annotation.h"
#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/finding.h"

#include <string>
#include <vector>

namespace kbaudit::annotations {

/// Why the facts do not cover the whole solution, one sentence per kind of gap (a repeated kind
/// is counted, not listed): the front ends' limits (nesting, evaluator budget, code built at run
/// time), Python that did not parse (`syntax-error`), no graded entry point (every rule that
/// follows the grader's call skipped), an embedded C++/CUDA unit whose errors hide code
/// (hidesCode), one Clang crashed on or one over its size limit.
/// With `problem`, a solution without a forward that defines the public module-level functions
/// the problem's reference defines (a harness that calls `run` or `decode_steps`) has its entry.
std::vector<std::string> visibilityGaps(const Facts &facts, const problems::ProblemContext *problem = nullptr);

/// Whether Clang's errors in a unit hide code: a fatal error (the parse stopped), Clang's
/// resource headers missing (every `size_t` an unknown type), or more than half of the unit's
/// top-level declarations invalid. Errors inside statements (an intrinsic the stubs lack, a
/// cuBLASLt call they do not declare) do not: Clang recovers within a statement.
bool hidesCode(const cxx::ParseReport &parse);

/// Lowers to low confidence, with a note in the evidence, every finding whose rule rests on an
/// absence (`rests_on: absence`).
void lowerAbsenceFindings(std::vector<rules::Finding> &findings);

/// Records `why` (non-empty) on a synthesized annotation: `complete: false`, the reasons, an
/// `analysis-incomplete` diagnostic each, and a verdict that is never `clean` (then `bug`);
/// a decided verdict keeps its class and says what was not seen.
void markIncomplete(Annotation &a, const std::vector<std::string> &why);

} // namespace kbaudit::annotations
