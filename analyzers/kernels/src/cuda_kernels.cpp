#include "cuda_kernels.h"

#include <deque>
#include <map>
#include <set>

namespace kbaudit::kernels {

namespace {

bool isMmaInstruction(const cxx::PtxInstruction &p) {
  return p.opcode == "mma" || p.opcode == "wgmma" || p.opcode == "tcgen05";
}

/// Call-graph nodes reachable from `start` within one source.
std::set<std::string> reachableFrom(const cxx::CxxFacts &cxx, const std::string &start, int source) {
  std::map<std::string, std::vector<std::string>> edges;
  for (const cxx::CallEdge &e : cxx.callGraph)
    if (e.source == source || source < 0)
      edges[e.caller].push_back(e.callee);
  std::set<std::string> seen{start};
  std::deque<std::string> todo{start};
  while (!todo.empty()) {
    const std::string fn = todo.front();
    todo.pop_front();
    for (const std::string &next : edges[fn])
      if (seen.insert(next).second)
        todo.push_back(next);
  }
  return seen;
}

bool inModule(const embed::EmbedFacts &embedded, int source, int module) {
  if (source < 0 || static_cast<std::size_t>(source) >= embedded.sources.size())
    return false;
  const int m = embedded.sources[static_cast<std::size_t>(source)].module;
  return module < 0 ? m < 0 : m == module;
}

} // namespace

void addCudaKernels(const cxx::CxxFacts &cxx, KernelInventory &inv) {
  // Functions that hold tensor-core work themselves.
  std::set<std::string> mmaFunctions;
  for (const cxx::PtxInstruction &p : cxx.ptx)
    if (isMmaInstruction(p))
      mmaFunctions.insert(p.function);
  for (const cxx::CxxCall &c : cxx.calls)
    if (c.category == cxx::CallCategory::Wmma && c.callee.find("mma_sync") != std::string::npos)
      mmaFunctions.insert(c.function);

  for (const cxx::CxxFunction &f : cxx.functions) {
    if (!f.isKernel() || !f.definition)
      continue;
    Kernel k{KernelKind::CudaGlobal, f.qualifiedName, f.source, f.lines, false, KernelWork::Unknown};
    for (const std::string &fn : reachableFrom(cxx, f.qualifiedName, f.source))
      if (mmaFunctions.count(fn)) {
        k.work = KernelWork::Matmul;
        break;
      }
    inv.kernels.push_back(std::move(k));
  }
  std::set<int> statements;
  for (const cxx::PtxInstruction &p : cxx.ptx)
    if (statements.insert(p.statement).second)
      inv.kernels.push_back(Kernel{KernelKind::InlinePtx, p.function, p.source, p.lines, false,
                                   isMmaInstruction(p) ? KernelWork::Matmul : KernelWork::Unknown});
}

void reachCudaExport(const cxx::CxxFacts &cxx, const embed::EmbedFacts &embedded, int module,
                     const std::string &exported, KernelInventory &inv) {
  std::set<std::string> reached;
  bool known = false;
  for (const cxx::ExportedFunction &e : cxx.exports) {
    if (e.name != exported || !inModule(embedded, e.source, module))
      continue;
    known = true;
    reached.insert(e.reached.begin(), e.reached.end());
    reached.insert(e.kernels.begin(), e.kernels.end());
  }
  for (const std::string &k : std::set<std::string>(reached))
    for (const std::string &fn : reachableFrom(cxx, k, -1))
      reached.insert(fn);
  for (Kernel &k : inv.kernels) {
    if ((k.kind != KernelKind::CudaGlobal && k.kind != KernelKind::InlinePtx) || !inModule(embedded, k.source, module))
      continue;
    // An export kbaudit cannot see (built by a different mechanism, or a parse gap) is
    // assumed to reach everything in its module rather than nothing.
    if (!known || reached.count(k.name))
      k.reachedFromForward = true;
  }
}

} // namespace kbaudit::kernels
