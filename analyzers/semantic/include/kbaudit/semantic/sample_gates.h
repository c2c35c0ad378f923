#pragma once

// Which branch tests decide on a sample of the input values, for RUB006 (input-distribution
// sniffing): a statistic over a fixed window of an input (semantic/input_samples.h) read on the
// test's own lines, or a name holding a decision derived from one (`big = x[:256].abs().max() >
// 1e3`, then `if big:`), followed through assignments that carry a decision.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/input_samples.h"
#include "kbaudit/semantic/scoped_names.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace kbaudit::semantic {

class SampleGates {
public:
  /// The samples and the names derived from them in `functions` (at most 4 rounds of
  /// assignments that carry a decision, semantic::carriesDecision).
  SampleGates(const Facts &facts, const std::set<std::string> &functions);

  /// No function reads a sample of its input.
  bool empty() const { return samples_.empty(); }

  /// The sample `b`'s test decides on: the strongest one read on its lines, else the one a name
  /// among its names holds; nullopt when none.
  std::optional<InputSample> gateOf(const py::Branch &b) const;

private:
  void add(const InputSample &s);
  const InputSample *sampleOn(const std::string &function, LineRange lines) const;
  void propagate(const Facts &facts, const std::set<std::string> &functions);

  std::map<std::string, InputSample> samples_; ///< by "function@line"
  ScopedNames<InputSample> derived_;
};

} // namespace kbaudit::semantic
