#pragma once

// Which calls draw from, reseed or restore a random stream: one vocabulary for the rules that
// follow replayed inputs (RUB007) and state a buffer only the reference's copy has (RUB008).

#include "kbaudit/python/facts.h"

#include <string_view>

namespace kbaudit::semantic {

/// A call that reseeds or restores a global random stream (`torch.manual_seed`,
/// `torch.cuda.manual_seed_all`, `torch.set_rng_state`, `numpy.random.seed`,
/// `torch.default_generator.manual_seed`, ...), by its resolved name.
bool isGlobalReseed(std::string_view resolved);

/// A global reseed, or `torch.random.fork_rng()`, under which draws repeat the stream the
/// harness will draw from next.
bool isRngRestore(std::string_view resolved);

/// A random draw: torch's samplers (`torch.randn`, `torch.randint_like`, ...), numpy.random's
/// (not its state functions), or a tensor's in-place random fill (`x.normal_()`).
bool isRandomDraw(const py::Call &c);

/// A factory whose values are random or uninitialised, by resolved name: any sampler or random
/// fill (under any receiver), `empty`/`empty_like`, `torch.nn.init.*`, `numpy.random.*`, `random.*`.
/// Why: a buffer made with one carries values only the copy that made it has.
bool isRandomFactory(std::string_view resolved);

} // namespace kbaudit::semantic
