#include "cuda_kernels.h"

#include <algorithm>
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

KernelWork classifyCudaWork(const cxx::CxxFacts &cxx, const cxx::CxxFunction &kernel,
                            const std::set<std::string> &reached, const std::set<std::string> &opaqueCalls) {
  // Fold in the device functions the kernel reaches (same source first: a __device__
  // function is only callable from its own translation unit without -rdc).
  cxx::DeviceWork w = kernel.work;
  bool opaque = opaqueCalls.count(kernel.qualifiedName) > 0;
  for (const std::string &fn : reached) {
    if (fn == kernel.qualifiedName)
      continue;
    const cxx::CxxFunction *def = nullptr;
    bool declared = false;
    for (const cxx::CxxFunction &g : cxx.functions) {
      if (g.qualifiedName != fn)
        continue;
      declared = true;
      if (g.definition && (!def || (g.source == kernel.source && def->source != kernel.source)))
        def = &g;
    }
    if (!def) {
      opaque = opaque || declared; // declared here, defined elsewhere: its work is unseen
      continue;
    }
    if (!def->onDevice())
      continue; // a host function named by a lambda or launch edge, not kernel code
    opaque = opaque || opaqueCalls.count(fn) > 0 || !def->work.analyzed;
    const cxx::DeviceWork &d = def->work;
    w.bodyErrors = w.bodyErrors || d.bodyErrors;
    w.loopAccumulate = w.loopAccumulate || d.loopAccumulate;
    w.loopProduct = w.loopProduct || d.loopProduct;
    w.atomics = w.atomics || d.atomics;
    w.barrier = w.barrier || d.barrier;
    w.shuffle = w.shuffle || d.shuffle;
    w.sharedMemory = w.sharedMemory || d.sharedMemory;
    w.compute = w.compute || d.compute;
  }
  if (!w.analyzed || w.bodyErrors)
    return KernelWork::Unknown;
  if (w.loopProduct)
    return KernelWork::Matmul; // an FMA loop over k of two operands: GEMM/convolution work
  if (w.loopAccumulate || w.shuffle || w.atomics)
    return KernelWork::Reduction;
  // Shared-memory cooperation without a recognised accumulation (a tiled transpose, or an
  // accumulation the patterns miss), or work hidden in an opaque callee: not classified.
  if (opaque || (w.sharedMemory && w.barrier))
    return KernelWork::Unknown;
  return w.compute ? KernelWork::Elementwise : KernelWork::Copy;
}

void addCudaKernels(const cxx::CxxFacts &cxx, KernelInventory &inv) {
  // Functions that hold tensor-core work themselves.
  std::set<std::string> mmaFunctions;
  for (const cxx::PtxInstruction &p : cxx.ptx)
    if (isMmaInstruction(p))
      mmaFunctions.insert(p.function);
  for (const cxx::CxxCall &c : cxx.calls)
    if (c.category == cxx::CallCategory::Wmma && c.callee.find("mma_sync") != std::string::npos)
      mmaFunctions.insert(c.function);

  // Device calls whose work the facts cannot see: a callee without a declaration, or a
  // library algorithm run inside the kernel (CUB block primitives, CuTe, CUTLASS).
  std::set<std::string> opaqueCalls;
  for (const cxx::CxxCall &c : cxx.calls)
    if (c.inDevice && (c.category == cxx::CallCategory::Unresolved || c.category == cxx::CallCategory::Cub ||
                       c.category == cxx::CallCategory::Cute || c.category == cxx::CallCategory::Cutlass ||
                       c.category == cxx::CallCategory::Wmma))
      opaqueCalls.insert(c.function);

  for (const cxx::CxxFunction &f : cxx.functions) {
    if (!f.isKernel() || !f.definition)
      continue;
    Kernel k{KernelKind::CudaGlobal, f.qualifiedName, f.source, f.lines, false, KernelWork::Unknown};
    const std::set<std::string> reached = reachableFrom(cxx, f.qualifiedName, f.source);
    if (std::any_of(reached.begin(), reached.end(), [&](const std::string &fn) { return mmaFunctions.count(fn) > 0; }))
      k.work = KernelWork::Matmul;
    else
      k.work = classifyCudaWork(cxx, f, reached, opaqueCalls);
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
