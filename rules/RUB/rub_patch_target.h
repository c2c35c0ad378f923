#pragma once

// What a replaced library attribute does for the grader (RUB003): the libraries the grader
// shares with the solution (torch and the standard library), the configuration knobs other rules
// own, and the class of a patched name (comparison, clock, input generator, reporting and
// serialisation, library op, initialiser), including a
// computed name settled from the values it can take.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules::rub {

enum class PatchKind { Comparison, Timing, Inputs, Reporting, Harness, Compute, Init };

struct PatchTarget {
  PatchKind kind;
  std::string_view what; ///< what the patched object does for the grader
};

/// Root modules the grader and the reference run in the same process (torch, time, builtins,
/// ...); a local sidecar module is the solution's own business.
bool isSharedRoot(std::string_view root);

/// `r` is `p` or below one of `prefixes` (a prefix ending in '.' matches any continuation).
bool anyPrefix(std::string_view r, std::initializer_list<std::string_view> prefixes);

/// Process-wide switches other rules own (precision flags: PREC002) or that are ordinary
/// configuration (cudnn autotuning, compiler caches, custom-op namespaces).
bool isConfigKnob(std::string_view r);

/// What the library attribute `r` ("torch.allclose") does for the grader.
PatchTarget classifyPatch(std::string_view r);

inline constexpr std::string_view kDynamicName = "<dynamic>";

/// The library attribute a write with a computed name replaces: the candidate that touches
/// grading most, or the name left "<object>.<dynamic>" when none is known to.
struct SettledName {
  std::string name;     ///< "torch.allclose"; "torch.<dynamic>" when unknown
  bool unknown = false; ///< no static value of the name touches grading beyond initialisation
  std::string note;     ///< what the values were
};
SettledName settleName(std::string_view object, const std::vector<std::string> &candidates);

} // namespace kbaudit::rules::rub
