#pragma once

// Which authored code the solution's forward actually runs, for the precision rules
// (PREC001, PREC003): narrowing in a kernel nobody launches does not change the score,
// and narrowing in a kernel whose launch path kbaudit cannot see is only worth a review.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/extension_sources.h"

#include <set>
#include <string>
#include <vector>

namespace kbaudit::rules::precreach {

enum class Reach { Reached, Unreached, Unknown };

class ForwardReach {
public:
  explicit ForwardReach(const Facts &f) : facts_(f) {
    knownEntry_ = !f.kernels.entryPoints.empty();
    python_.insert(f.kernels.reachableFunctions.begin(), f.kernels.reachableFunctions.end());
    // The constructor prepares weights forward will read (casts, pre-packing).
    for (const std::string &entry : f.kernels.entryPoints)
      if (const auto dot = entry.rfind('.'); dot != std::string::npos)
        python_.insert(entry.substr(0, dot) + ".__init__");
    collectCxx();
  }

  bool knownEntry() const { return knownEntry_; }
  bool pythonReached(const std::string &qualname) const { return python_.count(qualname) > 0; }

  Reach tritonKernel(unsigned index) const {
    if (!knownEntry_)
      return Reach::Unknown;
    std::set<unsigned> seen;
    return tritonLive(index, seen) ? Reach::Reached : Reach::Unreached;
  }

  /// A C++ function (kernel, device helper, host launcher) of the embedded sources.
  Reach cxxFunction(const std::string &qualifiedName) const {
    if (!knownEntry_)
      return Reach::Unknown;
    if (cxx_.count(qualifiedName))
      return Reach::Reached;
    // Without a visible Python -> extension path (ctypes, a prebuilt .so, a differently
    // named entry point) absence from the walk says nothing.
    return cxxPathKnown_ ? Reach::Unreached : Reach::Unknown;
  }

private:
  bool tritonLive(unsigned index, std::set<unsigned> &seen) const {
    if (!seen.insert(index).second)
      return false;
    const triton::Kernel &k = facts_.triton.kernels[index];
    for (const kernels::Kernel &inv : facts_.kernels.kernels)
      if (inv.kind == kernels::KernelKind::Triton && inv.reachedFromForward &&
          (inv.name == k.name || inv.name == k.qualname))
        return true;
    for (unsigned caller : k.calledBy)
      if (tritonLive(caller, seen))
        return true;
    return false;
  }

  void collectCxx() {
    const embed::EmbedFacts &em = facts_.embedded;
    std::vector<std::string> frontier;
    for (const embed::ExtensionCall &call : em.calls) {
      if (!python_.count(call.function))
        continue;
      for (const cxx::ExportedFunction &ex : facts_.cxx.exports) {
        if (!semantic::exportServes(em, ex, call))
          continue;
        cxxPathKnown_ = true;
        frontier.insert(frontier.end(), ex.reached.begin(), ex.reached.end());
      }
    }
    for (const kernels::Kernel &inv : facts_.kernels.kernels)
      if (inv.reachedFromForward &&
          (inv.kind == kernels::KernelKind::CudaGlobal || inv.kind == kernels::KernelKind::InlinePtx)) {
        cxxPathKnown_ = true;
        frontier.push_back(inv.name);
      }
    while (!frontier.empty()) {
      std::string node = std::move(frontier.back());
      frontier.pop_back();
      if (!cxx_.insert(node).second)
        continue;
      for (const cxx::CallEdge &e : facts_.cxx.callGraph)
        if (e.caller == node)
          frontier.push_back(e.callee);
    }
  }

  const Facts &facts_;
  bool knownEntry_ = false;
  bool cxxPathKnown_ = false;
  std::set<std::string> python_;
  std::set<std::string> cxx_;
};

} // namespace kbaudit::rules::precreach
