#include "forward_entry.h"

namespace kbaudit::rules {

bool forwardFound(const Facts &facts, FindingSink &sink) {
  if (!facts.kernels.entryPoints.empty())
    return true;
  sink.skipped("no forward method found");
  return false;
}

std::set<std::string> reachableFromForward(const Facts &facts) {
  return {facts.kernels.reachableFunctions.begin(), facts.kernels.reachableFunctions.end()};
}

} // namespace kbaudit::rules
