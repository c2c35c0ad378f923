// Torch fallbacks and what selects them (fallback_path.h).

#include "kbaudit/semantic/fallback_path.h"

#include "kbaudit/semantic/branch_kind.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/local_helper.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {
namespace {

using pytext::classOf;
using pytext::lastSegment;
using pytext::startsWith;

/// A helper that launches kernels itself is the kernel path, not the fallback.
bool authorsNoKernel(const Facts &f, const std::string &function) {
  for (const triton::Launch &l : f.triton.launches)
    if (l.function == function)
      return false;
  for (const embed::ExtensionCall &c : f.embedded.calls)
    if (c.function == function)
      return false;
  return true;
}

std::vector<HeavyUse> heavyIn(const Facts &f, const std::string &function, LineRange lines, int depth) {
  std::vector<HeavyUse> out;
  for (const kernels::LibraryOp &op : f.kernels.libraryOps)
    if (op.function == function && lines.contains(op.lines.begin))
      out.push_back({&op, op.lines, ""});
  if (depth >= 3)
    return out;
  for (const py::Call &c : f.python.calls) {
    if (c.function != function || !lines.contains(c.lines.begin))
      continue;
    const py::Function *helper = helperCalled(f.python, c, function);
    if (!helper || helper->qualname == function || !authorsNoKernel(f, helper->qualname))
      continue;
    for (HeavyUse u : heavyIn(f, helper->qualname, helper->lines, depth + 1)) {
      u.at = c.lines;
      u.via = helper->name;
      out.push_back(u);
    }
  }
  return out;
}

} // namespace

std::vector<HeavyUse> heavyOpsIn(const Facts &f, const std::string &function, LineRange lines) {
  return heavyIn(f, function, lines, 0);
}

bool announcesFailure(const py::TryHandler &h) {
  for (const std::string &c : h.handlerCalls) {
    const std::string_view m = lastSegment(c);
    if (c == "print" || startsWith(c, "warnings.") || startsWith(c, "logging.") || m == "warn" || m == "warning" ||
        m == "error" || m == "exception" || m == "write")
      return true;
  }
  return false;
}

FallbackGuards::FallbackGuards(const py::PythonFacts &py) : py_(py) {
  for (const py::TryHandler &h : py_.tryHandlers)
    for (const py::Assignment &a : py_.assignments)
      if (a.function == h.function && h.handlerLines.contains(a.lines.begin))
        fallbackFlags_.insert(a.target);
}

bool FallbackGuards::inHandler(const std::string &function, unsigned line) const {
  for (const py::TryHandler &h : py_.tryHandlers)
    if (h.function == function && h.handlerLines.contains(line))
      return true;
  return false;
}

const py::Branch *FallbackGuards::selectorOf(const std::string &function, unsigned line) const {
  const py::Branch *best = nullptr;
  for (const py::Branch &b : py_.branches) {
    if (b.function != function || !isSelection(b.kind) || !b.body.contains(line) ||
        (b.kind != "conditional" && b.lines.contains(line)))
      continue;
    if (!best || b.body.begin > best->body.begin || (b.body.begin == best->body.begin && b.lines.begin > best->lines.begin))
      best = &b;
  }
  return best;
}

std::optional<GuardKind> FallbackGuards::guardOf(const py::Branch &b) const {
  const auto has = [&](py::ConditionTag t) { return std::find(b.tags.begin(), b.tags.end(), t) != b.tags.end(); };
  if (has(py::ConditionTag::CallerFrame))
    return GuardKind::CallerFrame;
  for (const std::string &n : b.names)
    if (fallbackFlags_.count(n))
      return GuardKind::Availability;
  // `not x.is_cuda or K % 16`: the shape half fires on the graded GPU too.
  if (has(py::ConditionTag::Shape) || has(py::ConditionTag::Dtype) || readsShapeName(b))
    return GuardKind::Shape;
  if (has(py::ConditionTag::Device) || has(py::ConditionTag::Environment))
    return GuardKind::Device;
  if (has(py::ConditionTag::Attribute) || has(py::ConditionTag::Magnitude))
    return GuardKind::Other;
  // A predicate the file defines (`if not _kernel_ok():`) decides something about the
  // environment or the call, not a step of the arithmetic.
  for (const std::string &c : b.calls)
    if (const py::Function *fn = predicateCalled(c, b.function))
      return inspectsCaller(fn->qualname) ? GuardKind::CallerFrame : GuardKind::Other;
  return std::nullopt;
}

/// `M, K = x.shape; if M == 1:` tests a shape through a local name.
bool FallbackGuards::readsShapeName(const py::Branch &b) const {
  for (const py::Assignment &a : py_.assignments) {
    if (a.function != b.function || a.kind != py::Assignment::TargetKind::Name || a.lines.begin > b.lines.begin ||
        std::find(b.names.begin(), b.names.end(), a.target) == b.names.end())
      continue;
    if (readsShape(a.value))
      return true;
  }
  return false;
}

const py::Function *FallbackGuards::predicateCalled(const std::string &callee, const std::string &caller) const {
  if (startsWith(callee, "self.")) {
    const std::string cls = classOf(caller);
    return cls.empty() ? nullptr : py_.findFunction(cls + "." + callee.substr(5));
  }
  const py::Function *fn = py_.findFunction(callee);
  return fn && (fn->className.empty() || calledThroughClass(*fn)) ? fn : nullptr;
}

/// The predicate reads the call stack or the command line (who is running it).
bool FallbackGuards::inspectsCaller(const std::string &function) const {
  for (const py::NameRef &r : py_.nameRefs)
    if (r.function == function &&
        (startsWith(r.resolved, "inspect") || startsWith(r.resolved, "traceback") ||
         startsWith(r.resolved, "sys._getframe") || startsWith(r.resolved, "sys.argv") ||
         startsWith(r.resolved, "sys.orig_argv")))
      return true;
  return false;
}

} // namespace kbaudit::semantic
