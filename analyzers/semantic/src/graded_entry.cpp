#include "kbaudit/semantic/graded_entry.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {
namespace {

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// `@triton.jit def kernel(...)` (or any JIT decorator) is a device kernel, not a harness entry.
bool isJitKernel(const py::Function &f) {
  return std::any_of(f.decorators.begin(), f.decorators.end(), [](const py::Decorator &d) {
    return pytext::startsWith(d.resolved, "triton") || pytext::endsWith(d.resolved, "jit") ||
           pytext::endsWith(d.resolved, "kernel");
  });
}

/// Parameters that carry inputs: not the receiver, not starred, not optional.
std::vector<std::string> requiredParams(const py::Function &f, std::size_t skip) {
  std::vector<std::string> out;
  for (std::size_t i = skip; i < f.params.size(); ++i) {
    const std::string &p = f.params[i];
    if (p.empty() || p.front() == '*' || contains(f.defaultedParams, p))
      continue;
    out.push_back(p);
  }
  return out;
}

bool isMethod(const py::Function &f) { return !f.className.empty(); }

} // namespace

std::optional<GradedEntry> gradedEntry(const Facts &facts) {
  const std::vector<std::string> &entries = facts.kernels.entryPoints;
  if (entries.size() != 1)
    return std::nullopt;
  const py::Function *f = facts.python.findFunction(entries.front());
  if (!f || isJitKernel(*f))
    return std::nullopt;
  GradedEntry e;
  e.function = f;
  if (isMethod(*f)) {
    if (f->className != "ModelNew" && f->className != "Model")
      return std::nullopt;
    if (f->name != "forward" && f->name != "__call__")
      return std::nullopt;
    e.convention = EntryConvention::Module;
    e.inputs = requiredParams(*f, 1);
    return e;
  }
  if (f->qualname == "custom_kernel") {
    e.convention = EntryConvention::CustomKernel;
    e.inputs = requiredParams(*f, 0);
    return e;
  }
  if (f->qualname == "kernel") {
    // pygpubench: the first parameter is the preallocated output, the rest are inputs.
    if (f->params.size() < 2 || f->params[0].empty() || f->params[0].front() == '*')
      return std::nullopt;
    e.convention = EntryConvention::OutputKernel;
    e.output = f->params[0];
    e.inputs = requiredParams(*f, 1);
    return e;
  }
  return std::nullopt;
}

const py::Function *referenceEntry(const GradedEntry &entry, const py::PythonFacts &reference,
                                   const std::string &referenceModelClass) {
  switch (entry.convention) {
  case EntryConvention::Module:
    return referenceModelClass.empty() ? nullptr
                                       : reference.findFunction(referenceModelClass + "." + entry.function->name);
  case EntryConvention::CustomKernel:
    if (const py::Function *f = reference.findFunction("ref_kernel"); f && !isMethod(*f))
      return f;
    return nullptr;
  case EntryConvention::OutputKernel:
    return nullptr; // no reference layout is known to pair with kernel(output, *inputs)
  }
  return nullptr;
}

std::vector<UnreadInput> unreadEntryInputs(const GradedEntry &entry, const py::Function *reference) {
  std::vector<UnreadInput> out;
  const py::Function &f = *entry.function;
  if (f.opaqueReads || (reference && reference->opaqueReads))
    return out;
  std::vector<std::string> refInputs;
  if (reference)
    refInputs = requiredParams(*reference, isMethod(*reference) ? 1 : 0);
  const auto reads = [](const py::Function &fn, const std::string &p) {
    return std::binary_search(fn.reads.begin(), fn.reads.end(), p) &&
           !std::binary_search(fn.onlyDeleted.begin(), fn.onlyDeleted.end(), p);
  };
  for (std::size_t i = 0; i < entry.inputs.size(); ++i) {
    const std::string &p = entry.inputs[i];
    if (reads(f, p))
      continue;
    UnreadInput u{p, i, {}};
    if (reference) {
      // The reference passes fewer inputs, or ignores this one too: nothing to compare with.
      if (i >= refInputs.size() || !reads(*reference, refInputs[i]))
        continue;
      u.referenceParameter = refInputs[i];
    }
    out.push_back(std::move(u));
  }
  return out;
}

namespace {

bool nestedIn(const std::string &inner, const std::string &outer) {
  return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '.';
}

/// The def `outer` returns, when it returns a def nested in it (`return bind`).
const py::Function *returnedDef(const py::PythonFacts &facts, const py::Function &outer) {
  for (const py::Return &r : facts.returns)
    if (r.function == outer.qualname && r.value.kind == py::ExprKind::Name)
      if (const py::Function *f = facts.findFunction(outer.qualname + "." + r.value.text))
        return f;
  return nullptr;
}

} // namespace

bool replacedByDecorator(const py::PythonFacts &facts, const py::Function &fn) {
  for (const py::Decorator &d : fn.decorators) {
    const py::Function *deco = facts.findFunction(d.resolved);
    if (!deco)
      continue;
    // `@deco` hands fn to deco; `@deco(args)` hands it to the def deco returns.
    const bool called = d.text.find('(') != std::string::npos;
    const py::Function *receiver = called ? returnedDef(facts, *deco) : deco;
    if (!receiver || receiver->params.empty())
      continue;
    const std::string &decorated = receiver->params.front();
    // Does anything built around it call the decorated function?
    bool callsIt = false;
    for (const py::Call &c : facts.calls)
      if ((c.function == receiver->qualname || nestedIn(c.function, receiver->qualname)) && c.callee == decorated)
        callsIt = true;
    // A pass-through hands the function itself back (`return fn`).
    for (const py::Return &r : facts.returns)
      if ((r.function == receiver->qualname || nestedIn(r.function, receiver->qualname)) && r.value.text == decorated)
        callsIt = true;
    const bool wraps = std::any_of(facts.functions.begin(), facts.functions.end(),
                                   [&](const py::Function &f) { return nestedIn(f.qualname, receiver->qualname); });
    if (wraps && !callsIt)
      return true;
  }
  return false;
}

} // namespace kbaudit::semantic
