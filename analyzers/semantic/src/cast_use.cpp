// Whether a narrowing conversion's values and result matter (cast_use.h).

#include "kbaudit/semantic/cast_use.h"

#include "kbaudit/semantic/cross_element.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/python_text.h"

#include <cctype>

namespace kbaudit::semantic {
namespace {

using pytext::lastSegment;
using pytext::startsWith;

/// A comparison or negation: a boolean mask.
bool isMask(std::string_view receiver) {
  for (std::string_view op : {"<", ">", "==", "!=", "~"})
    if (receiver.find(op) != std::string_view::npos)
      return true;
  return startsWith(receiver, "not ");
}

/// A torch factory making constants (a ramp, ones, zeros).
bool isConstantFactory(const py::PythonFacts &py, std::string_view receiver) {
  const std::string head = py.resolve(callHead(receiver));
  if (!startsWith(head, "torch."))
    return false;
  for (std::string_view f : {"arange", "ones", "zeros", "full", "empty", "eye", "tensor", "as_tensor", "linspace",
                             "ones_like", "zeros_like", "full_like", "empty_like"})
    if (lastSegment(head) == f)
      return true;
  return false;
}

/// `c` computes with a value that reads `name` (a name) or holds the call `nested`, in its
/// arguments (all of them for kernels, extensions and helpers; positional ones for torch ops,
/// whose keywords are options and masks) or as the receiver of a tensor method.
bool consumes(const Facts &f, const py::Call &c, const std::string &name, const py::Call *nested = nullptr) {
  if (!computesWith(f, c))
    return false;
  bool own = false;
  cross::ofCall(f.python, c, &own);
  const bool anyArgument = own || !c.launchedKernel.empty();
  for (const py::Argument &a : c.args) {
    if (!anyArgument && !a.keyword.empty())
      continue;
    if (nested ? holdsCall(a.value, *nested) : reads(a.value, name))
      return true;
  }
  return pytext::mentionsName(c.receiver, name);
}

/// The value is the cast's result, possibly through further methods on it: its chain starts
/// at the cast's receiver and holds the cast.
bool bindsCastResult(const py::Expr &value, const py::Call &cast) {
  const std::string_view root = rootName(value);
  return !root.empty() && startsWith(cast.callee, std::string(root) + ".") && holdsCall(value, cast);
}

} // namespace

std::string_view callHead(std::string_view spelled) {
  const auto open = spelled.find('(');
  return open == std::string_view::npos ? spelled : spelled.substr(0, open);
}

bool isNnModuleClass(std::string_view resolved) {
  const std::string_view last = lastSegment(resolved);
  return startsWith(resolved, "torch.nn.") && !last.empty() && std::isupper(static_cast<unsigned char>(last[0]));
}

bool castsExactValues(const py::PythonFacts &py, const py::Call &cast) {
  return isMask(cast.receiver) || isConstantFactory(py, cast.receiver);
}

bool computesWith(const Facts &f, const py::Call &c) {
  if (!c.launchedKernel.empty())
    return true;
  for (const embed::ExtensionCall &e : f.embedded.calls)
    if (e.function == c.function && e.lines.overlaps(c.lines))
      return true;
  bool own = false;
  const cross::Kind k = cross::ofCall(f.python, c, &own);
  return own || k == cross::Kind::Statistic || k == cross::Kind::Contraction;
}

bool castFeedsMath(const Facts &f, const py::Call &cast) {
  const py::PythonFacts &py = f.python;
  // Narrowed inside the argument list of the math itself: `torch.matmul(a.half(), b.half())`.
  for (const py::Call &c : py.calls)
    if (&c != &cast && c.function == cast.function && c.lines.begin <= cast.lines.begin &&
        cast.lines.end <= c.lines.end && consumes(f, c, cast.callee, &cast))
      return true;
  // Bound to a name that later math reads: `q = q.half()` ... `sdpa(q, k, v)`.
  for (const py::Assignment &a : py.assignments) {
    if (a.function != cast.function || a.kind != py::Assignment::TargetKind::Name || !a.lines.overlaps(cast.lines) ||
        !bindsCastResult(a.value, cast))
      continue;
    for (const py::Call &c : py.calls)
      if (&c != &cast && c.function == cast.function && c.lines.begin >= a.lines.begin && consumes(f, c, a.target))
        return true;
    for (const py::OperatorUse &op : py.operators)
      if (op.function == cast.function && op.lines.begin >= a.lines.begin && operandsRead(op, a.target))
        return true;
  }
  return false;
}

} // namespace kbaudit::semantic
