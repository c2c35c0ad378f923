#pragma once

// The start TIME001-TIME004 share: each judges what forward reaches, read through
// semantic::ForwardReach (helper classes, callables handed on, the harness's other entry
// points), and has nothing to say about a file without an entry point.

#include "kbaudit/facts.h"
#include "kbaudit/rules/check.h"
#include "kbaudit/semantic/forward_reach.h"
#include "kbaudit/semantic/harness_conditions.h"

namespace kbaudit::rules::timing {

using semantic::argumentOf;
using semantic::ForwardReach;

/// Base of TIME001-TIME004: the reach is built and the skip reported here once.
class TimingCheck : public Check {
public:
  void run(const CheckContext &ctx, FindingSink &sink) const final;

protected:
  virtual void check(const CheckContext &ctx, const ForwardReach &reach, FindingSink &sink) const = 0;
};

} // namespace kbaudit::rules::timing
