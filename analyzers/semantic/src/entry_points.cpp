#include "kbaudit/semantic/entry_points.h"

namespace kbaudit::semantic {

bool hasEntryPoint(const Facts &facts) { return !facts.kernels.entryPoints.empty(); }

std::set<std::string> reachableFromEntry(const Facts &facts) {
  return {facts.kernels.reachableFunctions.begin(), facts.kernels.reachableFunctions.end()};
}

} // namespace kbaudit::semantic
