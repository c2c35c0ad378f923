#pragma once

// Which branch conditions test a magnitude statistic of the values: directly (`if
// x.abs().max() > 1e3:`), through a name that carries the decision (`big = torch.isinf(x).any()`
// ... `if big:`, followed through re-assignments and boolean combinations), or through a
// buffer a small detector kernel fills and the host reads back (`_absmax[grid](x, flag)`,
// `if flag.item():`). PREC005 judges what the gated code does differently; the pieces
// (statistics, read-backs, decision carriers) are magnitude_decision.h.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/magnitude_decision.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

/// Where a magnitude decision enters the program, for the message and the quoted lines.
struct MagnitudeOrigin {
  Strength strength = Strength::None;
  std::string what; ///< "x.abs().max()", "max |x| reduced by Triton kernel _detect (line 18)"
  LineRange lines;  ///< the line that computes or reads back the statistic, or the decision's assignment
};

class MagnitudeGates {
public:
  /// The statistics and decisions of the functions in `reachable` (and module level).
  MagnitudeGates(const Facts &f, const std::set<std::string> &reachable);

  /// The strongest magnitude statistic branch `b`'s condition tests: a statistic call in it,
  /// a read-back of a detector buffer, or a name carrying a decision; nullopt for none.
  std::optional<MagnitudeOrigin> gateOf(const py::Branch &b) const;

private:
  void collectDetectorBuffers();
  void collectTaint();
  std::optional<MagnitudeOrigin> statisticOn(std::string_view function, LineRange lines) const;
  std::optional<MagnitudeOrigin> taintedRead(std::string_view function, const py::Expr &value) const;
  const MagnitudeOrigin *lookup(const std::map<std::string, MagnitudeOrigin> &m, std::string_view function,
                                std::string_view name) const;

  const Facts &f_;
  const std::set<std::string> reachable_;
  /// Buffers a magnitude-detector kernel writes, keyed by scope ("Class#self.attr" or "fn:name").
  std::map<std::string, MagnitudeOrigin> detectorBuffers_;
  /// Names holding a magnitude-derived decision, keyed the same way.
  std::map<std::string, MagnitudeOrigin> tainted_;
};

} // namespace kbaudit::semantic
