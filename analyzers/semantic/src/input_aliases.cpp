#include "kbaudit/semantic/input_aliases.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic {

using pytext::lastSegment;
using pytext::startsWith;

namespace {

/// Methods that return a view or an alias of their receiver.
bool isViewMethod(std::string_view m) {
  static constexpr std::array<std::string_view, 22> kViews = {
      "view",    "reshape",  "view_as",    "flatten", "unflatten", "squeeze", "unsqueeze", "transpose",
      "permute", "t",        "expand",     "expand_as", "narrow",  "select",  "contiguous", "detach",
      "split",   "chunk",    "unbind",     "as_strided", "movedim", "swapaxes"};
  return std::find(kViews.begin(), kViews.end(), m) != kViews.end();
}

/// `x.T`, `x.mT`, `x.data`: the same storage (unlike `x.shape` or `x.dtype`).
bool isViewAttribute(const py::Expr &e) {
  if (e.kind != py::ExprKind::Attribute)
    return false;
  const std::string_view last = lastSegment(e.resolved);
  for (std::string_view a : {"T", "mT", "H", "mH", "data", "real", "imag"})
    if (last == a)
      return true;
  return false;
}

/// `state[3]["c_kv"]`: an item of a container or a slice of a tensor, subscripted straight off
/// its name, not of its metadata (`x.shape[0]`: a chain through an attribute of the root).
bool isItemOf(const py::Expr &e) {
  if (e.kind != py::ExprKind::Subscript)
    return false;
  const std::string root(rootName(e));
  if (root.empty())
    return false;
  return std::none_of(e.names.begin(), e.names.end(), [&](const std::string &n) { return startsWith(n, root + "."); });
}

/// `e` is a part or view of one of `names`: the name itself, an item, a view attribute or a
/// view method called on it (`x.view(-1)`, `x.contiguous()`).
bool isPartOf(const py::Expr &e, const std::set<std::string> &names) {
  const bool rooted = names.count(std::string(rootName(e))) > 0;
  if (e.kind == py::ExprKind::Name || isItemOf(e) || isViewAttribute(e))
    return rooted;
  if (e.kind == py::ExprKind::Call)
    return rooted && isViewMethod(lastSegment(e.resolved));
  return false;
}

} // namespace

std::vector<std::string> inputParams(const py::Function &fn) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < fn.params.size(); ++i) {
    const std::string &p = fn.params[i];
    if (i == 0 && !fn.className.empty() && (p == "self" || p == "cls"))
      continue;
    out.push_back(p);
  }
  return out;
}

std::set<std::string> inputAliases(const py::PythonFacts &facts, const py::Function &fn) {
  const std::vector<std::string> params = inputParams(fn);
  std::set<std::string> names(params.begin(), params.end());
  for (int round = 0; round < 4; ++round) {
    bool grew = false;
    for (const py::Assignment &a : facts.assignments) {
      if (a.function != fn.qualname || a.kind != py::Assignment::TargetKind::Name || a.op != "=" ||
          names.count(a.target))
        continue;
      const py::Expr &v = a.value;
      bool part = isPartOf(v, names);
      if (v.kind == py::ExprKind::Tuple)
        for (const py::Expr &e : v.elements)
          part |= e.kind != py::ExprKind::Call && isPartOf(e, names);
      if (part) {
        names.insert(a.target);
        grew = true;
      }
    }
    if (!grew)
      break;
  }
  return names;
}

bool reboundBefore(const py::PythonFacts &facts, const py::Function &fn, std::string_view name, unsigned line) {
  for (const py::Assignment &a : facts.assignments)
    if (a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Name && a.target == name &&
        (line == 0 || a.lines.begin < line))
      return true;
  return false;
}

} // namespace kbaudit::semantic
