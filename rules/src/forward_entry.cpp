#include "forward_entry.h"

#include "kbaudit/semantic/entry_points.h"

namespace kbaudit::rules {

bool forwardFound(const Facts &facts, FindingSink &sink) {
  if (semantic::hasEntryPoint(facts))
    return true;
  sink.skipped(std::string(kNoEntryPoint));
  return false;
}

std::set<std::string> reachableFromForward(const Facts &facts) { return semantic::reachableFromEntry(facts); }

} // namespace kbaudit::rules
