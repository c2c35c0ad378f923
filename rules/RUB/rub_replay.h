#pragma once

// RUB007's RNG-replay reading. A harness draws its inputs from a seeded random stream (the
// problem's `get_inputs` / `generate_input` after `torch.manual_seed`, or a seeded
// `torch.Generator`); a solution that reseeds or restores the RNG and draws again holds the
// same tensors the harness will pass (or has passed), and can compare its arguments with them
// or answer from outputs computed ahead of time.

#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/check.h"

#include <set>
#include <string>
#include <string_view>

namespace kbaudit::rules::rub {

/// Functions whose seeding is the harness's or the weights' business: `__init__`,
/// `get_inputs`, `get_init_inputs`, `reset_parameters`, `init_weights`.
bool isInitLike(std::string_view qualname);

/// The problem's input generator called: `get_inputs` / `generate_input` under any
/// receiver, or a public module-level function of the problem's reference that draws random
/// tensors (`init_state`, `make_inputs`), named in `referenceGenerators`.
bool isInputGeneratorCall(const py::Call &c, const std::set<std::string> &referenceGenerators);

/// Public module-level functions of the problem's reference that draw random tensors.
std::set<std::string> referenceInputGenerators(const problems::ProblemContext *problem);

/// Reports replays of the harness's random inputs: values drawn after a reseed (or returned
/// by the input generator) that forward compares with its own arguments or returns results
/// of (decisive), and the input generator run at import right after a reseed (review).
/// `reachable`: the functions the entry point reaches. Sources the regenerate check already
/// reports (the generator called on forward's path) are not reported again.
void reportRngReplay(const CheckContext &ctx, const std::set<std::string> &reachable, FindingSink &sink);

} // namespace kbaudit::rules::rub
