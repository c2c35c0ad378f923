// Matching compiled kernels (PTX entries, demangled) to the Clang front end's functions by
// qualified name, and answering whether the code that runs a function uses a dtype.
//
// Clearing is deliberately stricter than confirming: a site is Absent only when nothing in its
// whole unit uses the dtype (no MMA on it, no conversion to it, no arithmetic in it), so a call
// the Clang call graph does not show (a functor, a function pointer) cannot clear a real site.

#include "kbaudit/semantic/compiled_evidence.h"

#include <algorithm>
#include <set>

namespace kbaudit::semantic {

namespace {

using compiled::CompiledKernel;
using compiled::CompiledUnit;
using compiled::KernelCode;
using compiled::MmaUse;

bool sameDtype(const std::string &have, const std::string &want) {
  if (have == want)
    return true;
  // Source facts may say only "fp8" (storage types); the PTX names the format.
  return have.starts_with("fp8") && want.starts_with("fp8") && (have == "fp8" || want == "fp8");
}

bool mmaTakes(const MmaUse &m, const std::string &dtype) {
  if (m.family == "tcgen05" && m.kind == "f16")
    return dtype == "fp16" || dtype == "bf16"; // the descriptor picks which
  return sameDtype(m.a, dtype) || sameDtype(m.b, dtype);
}

/// PTX arithmetic type keys of a dtype.
bool arithmeticIn(const KernelCode &c, const std::string &dtype) {
  std::vector<std::string> keys;
  if (dtype == "fp16")
    keys = {"f16", "f16x2"};
  else if (dtype == "bf16")
    keys = {"bf16", "bf16x2"};
  for (const std::string &k : keys)
    if (c.fma.count(k) || c.arithmetic.count(k))
      return true;
  return false;
}

bool usesAtAll(const KernelCode &c, const std::string &dtype) {
  for (const MmaUse &m : c.mma)
    if (mmaTakes(m, dtype))
      return true;
  for (const compiled::ConversionUse &v : c.conversions)
    if (sameDtype(v.to, dtype))
      return true;
  return arithmeticIn(c, dtype);
}

const CompiledUnit *compiledUnitOf(const Facts &f, int source) {
  if (!f.compiled.attempted)
    return nullptr;
  return f.compiled.unitOf(source);
}

/// Names of the Clang kernels defined in the unit's sources.
std::set<std::string> clangKernels(const Facts &f, const CompiledUnit &u) {
  std::set<std::string> out;
  for (const cxx::CxxFunction &fn : f.cxx.functions)
    if (fn.isKernel() && std::find(u.sources.begin(), u.sources.end(), fn.source) != u.sources.end())
      out.insert(fn.qualifiedName);
  return out;
}

std::string header(const Facts &f) { return "compiled for " + f.compiled.arch; }

} // namespace

std::string describeMma(const MmaUse &m) {
  std::string s;
  if (!m.a.empty())
    s = (m.a == m.b || m.b.empty() ? m.a : m.a + "/" + m.b) + " operands";
  if (m.family == "tcgen05" && !m.kind.empty())
    s = "kind::" + m.kind + (s.empty() ? "" : " (" + s + ")");
  if (!m.accumulator.empty())
    s += (s.empty() ? "" : ", ") + m.accumulator + " accumulator";
  return s;
}

std::vector<std::string> kernelReach(const Facts &f, const std::string &kernel) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::vector<std::string> frontier{kernel};
  while (!frontier.empty()) {
    std::string node = std::move(frontier.back());
    frontier.pop_back();
    if (!seen.insert(node).second)
      continue;
    out.push_back(node);
    for (const cxx::CallEdge &e : f.cxx.callGraph)
      if (e.caller == node)
        frontier.push_back(e.callee);
  }
  return out;
}

CompiledEvidence compiledUse(const Facts &f, int source, const std::string &function, const std::string &dtype,
                             CompiledUse use) {
  CompiledEvidence ev;
  const CompiledUnit *u = compiledUnitOf(f, source);
  if (!u) {
    if (f.compiled.attempted)
      ev.text = "source facts only (the source was not compiled)";
    return ev;
  }
  if (u->status != compiled::UnitStatus::Compiled) {
    ev.text = "source facts only (not compiled for " + u->arch + ": " + u->why + ")";
    return ev;
  }
  // The compiled kernels that run `function`: those whose Clang kernel reaches it, and any the
  // Clang front end does not know by that name (a name kbaudit cannot match proves nothing).
  const std::set<std::string> known = clangKernels(f, *u);
  std::vector<const CompiledKernel *> running;
  for (const CompiledKernel &k : u->kernels) {
    if (function.empty() || !known.count(k.name)) {
      running.push_back(&k);
      continue;
    }
    const std::vector<std::string> reach = kernelReach(f, k.name);
    if (std::find(reach.begin(), reach.end(), function) != reach.end())
      running.push_back(&k);
  }
  for (const CompiledKernel *k : running) {
    if (use == CompiledUse::MmaOperand) {
      for (const MmaUse &m : k->code.mma)
        if (mmaTakes(m, dtype)) {
          ev.state = CompiledState::Confirmed;
          ev.accumulator = m.accumulator;
          ev.text = header(f) + ": `" + m.instruction + "` (" + describeMma(m) + ") x" + std::to_string(m.count) +
                    " in " + k->name;
          return ev;
        }
    } else if (arithmeticIn(k->code, dtype)) {
      unsigned n = 0;
      std::string types;
      for (const auto *counts : {&k->code.fma, &k->code.arithmetic})
        for (const auto &[type, count] : *counts)
          if ((dtype == "fp16" && type.starts_with("f16")) || (dtype == "bf16" && type.starts_with("bf16"))) {
            n += count;
            if (types.find(type) == std::string::npos)
              types += (types.empty() ? "" : ", ") + type;
          }
      ev.state = CompiledState::Confirmed;
      ev.text = header(f) + ": " + std::to_string(n) + " " + types + " arithmetic instruction(s) in " + k->name;
      return ev;
    }
  }
  for (const CompiledKernel &k : u->kernels)
    if (usesAtAll(k.code, dtype)) {
      ev.state = CompiledState::Inconclusive;
      ev.text = header(f) + ": kernel " + k.name + " uses " + dtype + ", but no kernel known to run " +
                (function.empty() ? std::string("this code") : function) + " does so here";
      return ev;
    }
  ev.state = CompiledState::Absent;
  ev.text = header(f) + ": no kernel of this source issues " + dtype + " MMAs, conversions to " + dtype +
            " or " + dtype + " arithmetic (" + std::to_string(u->kernels.size()) + " kernel(s) compiled)";
  return ev;
}

std::vector<CompiledMma> compiledMmas(const Facts &f) {
  std::vector<CompiledMma> out;
  if (!f.compiled.attempted)
    return out;
  for (const CompiledUnit &u : f.compiled.units) {
    if (u.status != compiled::UnitStatus::Compiled)
      continue;
    for (const CompiledKernel &k : u.kernels) {
      LineRange lines;
      for (const cxx::CxxFunction &fn : f.cxx.functions)
        if (fn.isKernel() && fn.definition && fn.qualifiedName == k.name &&
            std::find(u.sources.begin(), u.sources.end(), fn.source) != u.sources.end())
          lines = fn.lines;
      bool reached = false;
      for (const kernels::Kernel &inv : f.kernels.kernels)
        if (inv.kind == kernels::KernelKind::CudaGlobal && inv.name == k.name && inv.reachedFromForward &&
            std::find(u.sources.begin(), u.sources.end(), inv.source) != u.sources.end())
          reached = true;
      for (const MmaUse &m : k.code.mma)
        out.push_back({&u, &k, &m, lines, reached,
                       header(f) + ": `" + m.instruction + "` (" + describeMma(m) + ") x" + std::to_string(m.count) +
                           " in " + k.name});
    }
  }
  return out;
}

} // namespace kbaudit::semantic
