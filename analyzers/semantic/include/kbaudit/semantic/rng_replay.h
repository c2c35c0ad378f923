#pragma once

// Replays of a harness's random inputs. A harness draws its inputs from a seeded random stream
// (the problem's `get_inputs` / `generate_input` after `torch.manual_seed`, or a seeded
// `torch.Generator`); a solution that reseeds or restores the RNG and draws again holds the same
// tensors the harness will pass (or has passed), and can compare its arguments with them or
// answer from outputs computed ahead of time. RUB007 asks this.

#include "kbaudit/facts.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// Functions whose seeding is the harness's or the weights' business: `__init__`,
/// `get_inputs`, `get_init_inputs`, `reset_parameters`, `init_weights`.
bool isInitLike(std::string_view qualname);

/// The problem's input generator called: `get_inputs` / `generate_input` under any
/// receiver, or a public module-level function of the problem's reference that draws random
/// tensors (`init_state`, `make_inputs`), named in `referenceGenerators`.
bool isInputGeneratorCall(const py::Call &c, const std::set<std::string> &referenceGenerators);

/// Public module-level functions of a problem's reference (its facts) that draw random tensors.
std::set<std::string> referenceInputGenerators(const py::PythonFacts &reference);

struct RngReplay {
  const py::Call *source = nullptr; ///< the draw or generator call
  std::string what;                 ///< "regenerates the problem's inputs with get_inputs() ... and ..."
  std::string evidence;             ///< where the replayed value is compared or returned, or why unsure
  bool decisive = false;            ///< compared with forward's inputs or returned by an entry point
};

/// Values drawn after a reseed (or returned by the input generator) that an entry point compares
/// with its own arguments or returns results of (decisive), and the input generator run at
/// import right after a reseed (not decisive). `reachable`: the functions the entry point
/// reaches; `generators`: referenceInputGenerators of the problem. The generator called on
/// forward's path itself is not listed (that is a regeneration, not a replay).
std::vector<RngReplay> rngReplays(const Facts &facts, const std::set<std::string> &reachable,
                                  const std::set<std::string> &generators);

} // namespace kbaudit::semantic
