#pragma once

// Whether the graded entry computes only part of its output and fills the rest by copying or
// rescaling that part: a slice of the input bounded by a constant or a fraction of its size
// (or a strided subsample) feeds the computation, and the result is replicated (`torch.cat([y,
// y])`, `.repeat`, `.expand`, `.tile`) or a sum over the subsample is multiplied by the ratio.
// Such an output matches the reference only when the input is repetitive.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/graded_entry.h"

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

/// The first `NAME[INDEX]` in `text` (NAME a whole word of `inputs`, not an attribute) whose
/// INDEX keeps part of a dimension: a slice bounded by a positive integer literal (`x[:64]`,
/// `x[0:1]`), by a fraction of a size (`x[: n // 2]`, `x[:, : x.shape[1] // 4]`, `x[n // 2:]`,
/// `/`, `//` or `>>` by a literal, `int(n * 0.5)`), or strided by a literal of 2 or more
/// (`x[::4]`); returned as written, "" when there is none. A slice bounded by a variable
/// (`x[i:i + chunk]`, `x[:n]`) is a tile of a loop, not part of the input left out.
std::string partialSlice(std::string_view text, const std::set<std::string> &inputs);

/// `text` replicates a value `isPart` accepts: `torch.cat`/`concat`/`stack`/`hstack`/`vstack`
/// of a list holding the same item twice or `[y] * k`, `y.repeat(`, `.tile(`, `.expand(`,
/// `.expand_as(`, `.repeat_interleave(`, `.broadcast_to(`, or `torch.tile`/`torch.broadcast_to`/
/// `torch.repeat_interleave`/`einops.repeat` of it. Returns the construct as written (`.repeat(`,
/// `torch.cat(`), "" when there is none; `operand` receives the replicated operand's text.
/// `isPart` is asked about each candidate operand's text.
std::string replicationIn(std::string_view text, const std::function<bool(std::string_view)> &isPart,
                          std::string *operand = nullptr);

/// `text` is a product (top-level `*`) of a factor `isPartSum` accepts and a ratio: a numeric
/// literal above 1 or a factor holding `/` (`part.sum() * 4`, `s * (n / m)`). Returns the
/// accepted factor, "" when there is none.
std::string rescaleIn(std::string_view text, const std::function<bool(std::string_view)> &isPartSum);

/// One partial computation of the graded entry.
struct PartialComputation {
  LineRange slice;       ///< the statement slicing the input
  std::string sliceText; ///< `x[: x.shape[0] // 2]`
  LineRange fill;        ///< the statement replicating or rescaling the part
  std::string fillText;  ///< `torch.cat(`, `.repeat(`, `* 2`
  bool rescale = false;  ///< a sum over the part multiplied by a ratio (not a copy)
  /// A call or arithmetic beyond views and casts (the authored computation) lies between the
  /// slice and the fill.
  bool computed = false;
  /// The filled value reaches the entry's return or is written into its output buffer.
  bool reachesResult = false;
};

/// Partial computations in the graded entry (and the defs nested in it): slices of its inputs
/// (for `custom_kernel`, of the names unpacked from `data`) followed through assignments,
/// calls that write their arguments (launches, in-place methods, `out=`) and returns.
std::vector<PartialComputation> partialComputations(const Facts &facts, const GradedEntry &entry);

} // namespace kbaudit::semantic
