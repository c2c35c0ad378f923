#include "kbaudit/semantic/arm_work.h"

#include "kbaudit/python/dtype.h"
#include "kbaudit/semantic/float_cast.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/local_helper.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace kbaudit::semantic {

using namespace pytext;

namespace {

using floatcast::isFloatDtype;

std::optional<DtypeUse> hostCast(const py::Call &c) {
  const std::optional<floatcast::HostCast> cast = floatcast::hostCast(c);
  if (!cast)
    return std::nullopt;
  return DtypeUse{cast->dtype, "casts to " + cast->dtype + " (" + lineText(c.lines) + ")"};
}

bool isExceptionOrLog(std::string_view resolved) {
  const std::string_view m = lastSegment(resolved);
  return m.ends_with("Error") || m.ends_with("Exception") || m == "print" || m == "warn" || m == "warning";
}

void note(ArmWork &w, std::string n) {
  if (w.notes.size() < 3 && std::find(w.notes.begin(), w.notes.end(), n) == w.notes.end())
    w.notes.push_back(std::move(n));
}

void kernelWork(const Facts &f, unsigned k, const triton::Launch &l, ArmWork &w) {
  const triton::Kernel &kernel = f.triton.kernels[k];
  w.kernels.insert(kernel.name);
  note(w, "launches " + kernel.name + " (" + lineText(l.lines) + ")");
  for (const triton::Cast &cast : f.triton.casts)
    if (cast.kernel == k && !cast.bitcast && isFloatDtype(cast.target.dtype))
      w.dtypes.push_back({cast.target.dtype, kernel.name + " casts to " + cast.target.dtype + " (" +
                                                 lineText(cast.lines) + ")"});
  for (const triton::Dot &d : f.triton.dots)
    if (d.kernel == k && startsWith(d.precision, "tf32") && d.precision != "tf32x3")
      w.dtypes.push_back({"tf32", kernel.name + " runs tl.dot in tf32 (" + lineText(d.lines) + ")"});
}

ArmWork workAt(const Facts &f, const std::string &function, LineRange lines, int depth) {
  ArmWork w;
  for (const py::Call &c : f.python.calls) {
    if (c.function != function || !lines.contains(c.lines.begin))
      continue;
    if (!isExceptionOrLog(c.resolved))
      w.anyCall = true;
    if (std::optional<DtypeUse> d = hostCast(c))
      w.dtypes.push_back(*d);
    if (depth == 0)
      if (const py::Function *helper = helperCalled(f.python, c, function)) {
        const ArmWork inner = workAt(f, helper->qualname, helper->lines, depth + 1);
        const std::string via = "via " + helper->name + "(): ";
        for (DtypeUse d : inner.dtypes) {
          d.note = via + d.note;
          w.dtypes.push_back(std::move(d));
        }
        for (const std::string &n : inner.notes)
          note(w, via + n);
        w.library |= inner.library;
        w.kernels.insert(inner.kernels.begin(), inner.kernels.end());
      }
  }
  for (const triton::Launch &l : f.triton.launches)
    if (l.function == function && lines.contains(l.lines.begin))
      for (unsigned k : l.candidates)
        kernelWork(f, k, l, w);
  for (const embed::ExtensionCall &c : f.embedded.calls)
    if (c.function == function && lines.contains(c.lines.begin)) {
      w.kernels.insert("ext." + c.exported);
      note(w, "calls extension function " + c.exported + " (" + lineText(c.lines) + ")");
    }
  for (const kernels::LibraryOp &op : f.kernels.libraryOps)
    if (op.function == function && lines.contains(op.lines.begin)) {
      w.library = true;
      note(w, std::string(kernels::heavyOpKindName(op.kind)) + " via " + op.callee + " (" + lineText(op.lines) + ")");
    }
  return w;
}

/// Calls that make the first calls different without changing the result: compiling,
/// autotuning, capturing a CUDA graph, timing candidate configurations, building extensions.
bool isSetupCall(const py::Call &c) {
  const std::string r = scope::lower(c.resolved), m = scope::lower(c.method);
  for (std::string_view s : {"torch.cuda.cudagraph", "torch.cuda.graph", "torch.cuda.make_graphed_callables",
                             "torch.compile", "torch.cuda.synchronize", "torch.cuda.event", "triton.testing",
                             "time.", "torch.utils.cpp_extension", "torch.cuda.stream"})
    if (startsWith(r, s))
      return true;
  for (std::string_view s : {"tune", "warmup", "warm_up", "compile", "capture", "bench", "profile"})
    if (m.find(s) != std::string::npos)
      return true;
  return m == "replay" || m == "record" || m == "elapsed_time";
}

/// Calls that neither compute nor report: views, copies, allocation, bookkeeping.
bool isCheap(const py::Call &c) {
  static const std::set<std::string_view> cheap = {
      "clone", "detach", "view",  "reshape", "contiguous", "copy_",  "to",     "empty", "empty_like", "zeros",
      "zeros_like", "fill_", "zero_", "len", "isinstance", "getattr", "setattr", "hasattr", "tuple", "list",
      "dict", "int", "float", "bool", "min", "max", "append", "get", "items", "keys", "values", "range", "size",
      "dim", "numel", "stride", "data_ptr", "item"};
  return cheap.count(c.method) || scope::isLoggingCall(c.resolved) || scope::isExceptionConstructor(c.resolved);
}

} // namespace

std::vector<LineRange> armsOf(const Facts &f, const py::Branch &b) {
  if ((b.kind != "if" && b.kind != "elif") || b.arms.empty())
    return {};
  // Each arm runs from its block (an if/elif's test is not the arm's work; a one-line
  // `if c: stmt` keeps its test line) to the line before the next arm's keyword.
  const auto startOf = [](const py::BranchArm &a) { return a.kind == "else" ? a.lines.begin : a.test.begin; };
  std::vector<LineRange> arms;
  bool hasElse = false;
  for (size_t i = 0; i < b.arms.size(); ++i) {
    const py::BranchArm &a = b.arms[i];
    const unsigned end = i + 1 < b.arms.size() ? startOf(b.arms[i + 1]) - 1 : b.body.end;
    unsigned begin = startOf(a);
    if (a.kind != "else" && a.test.end < end)
      begin = a.test.end + 1;
    hasElse |= a.kind == "else";
    arms.push_back({begin, end});
  }
  if (hasElse)
    return arms;
  const py::Function *fn = f.python.findFunction(b.function);
  const bool leaves = std::any_of(f.python.returns.begin(), f.python.returns.end(), [&](const py::Return &r) {
    return r.function == b.function &&
           std::any_of(b.arms.begin(), b.arms.end(), [&](const py::BranchArm &a) { return a.body.contains(r.lines.begin); });
  });
  if (leaves && fn && fn->lines.end > b.body.end)
    arms.push_back({b.body.end + 1, fn->lines.end});
  else
    arms.push_back({}); // the path that skips the block
  return arms;
}

std::set<std::string> ArmWork::dtypeSet() const {
  std::set<std::string> s;
  for (const DtypeUse &d : dtypes)
    s.insert(d.dtype);
  return s;
}

ArmWork workIn(const Facts &facts, const std::string &function, LineRange lines) {
  if (!lines.valid())
    return {};
  return workAt(facts, function, lines, 0);
}

unsigned precisionBits(std::string_view dtype) {
  if (dtype == "tf32")
    return 19;
  return dtype::dtypeBits(dtype);
}

ArmEffects effectsOf(const Facts &facts, const std::string &function, LineRange arm) {
  ArmEffects s;
  if (!arm.valid())
    return s;
  const py::PythonFacts &py = facts.python;
  const ArmWork work = workIn(facts, function, arm);
  s.library = work.library;
  s.kernel = !work.kernels.empty();
  for (const py::Call *c : scope::callsIn(py, function, arm)) {
    s.setup |= isSetupCall(*c);
    if (isCheap(*c))
      continue;
    s.computes = true;
    if (startsWith(c->resolved, "torch.") && !startsWith(c->resolved, "torch.cuda.") &&
        c->resolved.find("empty") == std::string::npos)
      s.torchMath = true;
  }
  for (const py::Assignment &a : py.assignments)
    if (scope::inFunction(a.function, function) && scope::contains(arm, a.lines))
      s.assigns = true;
  for (const py::OperatorUse &o : py.operators)
    if (scope::inFunction(o.function, function) && scope::contains(arm, o.lines))
      s.computes = s.library = s.torchMath = true;
  s.computes |= s.library || s.kernel;
  s.torchMath |= s.library;
  if (!s.computes)
    for (const py::SelfAccess &a : py.selfAccesses)
      if (!a.write && scope::inFunction(a.function, function) && scope::contains(arm, a.lines))
        s.readsState = true;
  return s;
}

} // namespace kbaudit::semantic
