#pragma once

// How a magnitude test reaches a branch: which calls are statistics of a tensor's values
// (|x|, norms, NaN/Inf tests; a bare max/min only weakly), which calls read a device value back
// to the host, and which expressions only carry a decision on (names, comparisons, bool()/
// .item()) rather than compute with it. PREC005 follows a magnitude gate through these, and RUB006
// a sampled statistic.

#include "kbaudit/python/facts.h"

#include <string_view>

namespace kbaudit::semantic {

/// How much a statistic says about the magnitude of the values (rather than, say, the
/// longest sequence in a batch of integer lengths).
enum class Strength { None, Weak, Strong };

/// A tensor statistic of values, by the resolved callee: |x|, norms, spreads and NaN/Inf tests
/// are Strong; a bare max/min Weak (it may be routing metadata: the longest sequence, the
/// busiest expert); Python scalars, math., numpy. and triton. calls None.
Strength statisticStrength(std::string_view resolvedCallee);

/// Calls that turn a device statistic into a host decision (`.item()`, `bool()`, `.any()`,
/// `max`, `mean`, `isnan`, ...) and expressions that only combine decisions (names, attributes,
/// comparisons, boolean operations, negation, conditionals, subscripts): taint flows through
/// these, never through tensor arithmetic, so a per-tensor scale that feeds quantization does
/// not turn later shape tests into gates.
bool carriesDecision(const py::Expr &value);

/// The resolved callee reads a device value back to the host (`item`, `tolist`, `cpu`,
/// `numpy`, `any`, `all`).
bool readsBack(std::string_view resolvedCallee);

} // namespace kbaudit::semantic
