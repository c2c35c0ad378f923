#include "kbaudit/semantic/arm_work.h"

#include "kbaudit/python/dtype.h"
#include "kbaudit/semantic/float_cast.h"
#include "kbaudit/semantic/local_helper.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <optional>

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

} // namespace kbaudit::semantic
