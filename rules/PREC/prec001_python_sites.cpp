// PREC001's narrowed activations and narrow-dtype modules (prec001_python_sites.h).

#include "prec001_python_sites.h"

#include "kbaudit/semantic/cross_element.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"
#include "semantic_names.h"

#include <cctype>
#include <string_view>

namespace kbaudit::rules::prec001 {
namespace {

namespace cross = semantic::cross;
using pytext::lastSegment;
using pytext::mentionsName;
using pytext::startsWith;

/// A comparison or negation: a boolean mask, exact in any float type.
bool isMask(std::string_view receiver) {
  for (std::string_view op : {"<", ">", "==", "!=", "~"})
    if (receiver.find(op) != std::string_view::npos)
      return true;
  return startsWith(receiver, "not ");
}

/// The dotted head of an expression as written, before its first call (`nn.Linear` of
/// `nn.Linear(4, 8).half`, `torch.arange` of `torch.arange(n)`).
std::string_view callHead(std::string_view text) {
  const auto open = text.find('(');
  return open == std::string_view::npos ? text : text.substr(0, open);
}

/// A torch factory making constants (a ramp, ones, zeros): exact values, not an activation.
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

/// A call that does math with its arguments: a torch reduction or contraction (or an nn module
/// doing one), a kernel launch, an extension function, or a helper of the file itself.
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

using semantic::holdsCall;

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
    if (nested ? holdsCall(a.value, *nested) : semantic::reads(a.value, name))
      return true;
  }
  return mentionsName(c.receiver, name);
}

/// The call as a finding quotes it, with its arguments (`q.to(torch.float16)`).
std::string written(const py::Call &c) {
  std::string args;
  for (const py::Argument &a : c.args)
    args += (args.empty() ? "" : ", ") + (a.keyword.empty() ? "" : a.keyword + "=") + semantic::quote(a.value);
  return c.callee + "(" + args + ")";
}

/// The value is the cast's result, possibly through further methods on it (`q = q.half()`,
/// `q = q.view(...).half().contiguous()`): its chain starts at the cast's receiver and holds
/// the cast.
bool bindsCastResult(const py::Expr &value, const py::Call &cast) {
  const std::string_view root = semantic::rootName(value);
  return !root.empty() && startsWith(cast.callee, std::string(root) + ".") && holdsCall(value, cast);
}

} // namespace

std::vector<NarrowingSite> activationCasts(const Facts &f) {
  const py::PythonFacts &py = f.python;
  std::vector<NarrowingSite> out;
  for (const py::Call &cast : py.calls) {
    if (f.triton.findKernel(cast.function) || cast.receiver.empty())
      continue;
    const std::optional<floatcast::HostCast> hc = floatcast::hostCast(cast);
    if (!hc || !hc->conversion || isMask(cast.receiver) || isConstantFactory(py, cast.receiver))
      continue;
    const std::string site = "`" + written(cast) + "` on an activation computed in " + cast.function;
    bool used = false;
    // Narrowed inside the argument list of the math itself: `torch.matmul(a.half(), b.half())`.
    for (const py::Call &c : py.calls)
      if (&c != &cast && c.function == cast.function && c.lines.begin <= cast.lines.begin && cast.lines.end <= c.lines.end &&
          consumes(f, c, cast.callee, &cast))
        used = true;
    // Bound to a name that later math reads: `q = q.half()` ... `sdpa(q, k, v)`.
    for (const py::Assignment &a : py.assignments) {
      if (used || a.function != cast.function || a.kind != py::Assignment::TargetKind::Name ||
          !a.lines.overlaps(cast.lines) || !bindsCastResult(a.value, cast))
        continue;
      for (const py::Call &c : py.calls)
        if (&c != &cast && c.function == cast.function && c.lines.begin >= a.lines.begin && consumes(f, c, a.target))
          used = true;
      for (const py::OperatorUse &op : py.operators)
        if (op.function == cast.function && op.lines.begin >= a.lines.begin && semantic::operandsRead(op, a.target))
          used = true;
    }
    if (used)
      out.push_back({cast.lines, site, hc->dtype, cast.function});
  }
  return out;
}

std::vector<NarrowingSite> narrowModules(const Facts &f) {
  const py::PythonFacts &py = f.python;
  const auto isModuleClass = [](std::string_view resolved) {
    const std::string_view last = lastSegment(resolved);
    return startsWith(resolved, "torch.nn.") && !last.empty() && std::isupper(static_cast<unsigned char>(last[0]));
  };
  std::vector<NarrowingSite> out;
  for (const py::Call &c : py.calls) {
    const std::optional<floatcast::HostCast> hc = floatcast::hostCast(c);
    if (!hc)
      continue;
    // `nn.Linear(..., dtype=torch.float16)`: the module's weights are created narrow.
    if (!hc->conversion && isModuleClass(c.resolved)) {
      out.push_back({c.lines, "`" + c.callee + "(..., dtype=...)` module built in " + c.function, hc->dtype, c.function});
      continue;
    }
    // `nn.Linear(...).half()`: converted as it is built.
    if (hc->conversion && !c.receiver.empty() && isModuleClass(py.resolve(callHead(c.receiver))))
      out.push_back({c.lines, "`" + std::string(callHead(c.receiver)) + "(...)." + c.method + "()` module built in " +
                                  c.function,
                     hc->dtype, c.function});
  }
  return out;
}

} // namespace kbaudit::rules::prec001
