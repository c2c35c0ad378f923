#include "kbaudit/semantic/expr_structure.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic {

namespace {

bool endsWithSegment(std::string_view dotted, std::string_view member) {
  if (dotted == member)
    return true;
  return dotted.size() > member.size() && dotted.ends_with(member) &&
         dotted[dotted.size() - member.size() - 1] == '.';
}

bool isViewMethod(std::string_view m) {
  static constexpr std::array<std::string_view, 12> kViews = {
      "contiguous", "t", "detach", "clone", "view", "reshape", "flatten", "transpose", "permute", "cuda", "float", "squeeze"};
  return std::find(kViews.begin(), kViews.end(), m) != kViews.end();
}

} // namespace

bool readsMember(const py::Expr &e, std::string_view member) {
  if (member.empty())
    return false;
  for (const std::string &n : e.names)
    if (endsWithSegment(n, member))
      return true;
  return e.namesTruncated && reads(e, member);
}

bool readsAttribute(const py::Expr &e, std::string_view attr) {
  if (attr.empty())
    return false;
  for (const std::string &n : e.names)
    if (n != attr && endsWithSegment(n, attr))
      return true;
  return e.namesTruncated && reads(e, attr);
}

bool readsShape(const py::Expr &e) {
  for (std::string_view member : {"shape", "size", "numel", "dim", "ndim"})
    if (readsAttribute(e, member))
      return true;
  return reads(e, "len");
}

std::string sameDataRoot(const py::Expr &e) {
  const std::string root(rootName(e));
  if (root.empty())
    return {};
  switch (e.kind) {
  case py::ExprKind::Name:
    return root;
  case py::ExprKind::Attribute:
    // A plain chain resolves to itself spelled with dots only; `a[0].b` or `f().b` does not.
    return e.resolved.find_first_of("[(") == std::string::npos ? root : std::string();
  case py::ExprKind::Call: {
    // The resolver spells a call chain with abbreviated arguments: `x.view(-1).float()` is
    // "x.view(...).float"; every call in it must be a view-like method, and nothing subscripted.
    std::string_view chain = e.resolved;
    if (chain.find('[') != std::string_view::npos || chain.find('.') == std::string_view::npos)
      return {};
    std::size_t at = chain.find('.');
    while (at != std::string_view::npos) {
      const std::size_t next = chain.find('.', at + 1);
      std::string_view seg = chain.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1);
      // A called segment is spelled `name(...)` or `name()`; the last one is the call itself.
      const std::size_t open = seg.find('(');
      const bool called = open != std::string_view::npos || next == std::string_view::npos;
      seg = seg.substr(0, open);
      if (called && !isViewMethod(seg))
        return {};
      at = next;
    }
    // The head itself must not be a call (`f().t()`).
    return chain.substr(0, chain.find('.')).find('(') == std::string_view::npos ? root : std::string();
  }
  default:
    return {};
  }
}

std::optional<std::string> attributeOwner(const py::Expr &e, std::string_view attr) {
  if (e.kind != py::ExprKind::Attribute || attr.empty() || e.resolved.find_first_of("[(") != std::string::npos)
    return std::nullopt;
  const std::string_view r = e.resolved;
  if (r.size() <= attr.size() + 1 || !endsWithSegment(r, attr))
    return std::nullopt;
  return std::string(r.substr(0, r.size() - attr.size() - 1));
}

const py::Call *callOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function) {
  if (e.kind != py::ExprKind::Call)
    return nullptr;
  for (const py::Call &c : py.calls)
    if (c.function == function && c.resolved == e.resolved && c.lines.begin == e.lines.begin &&
        c.lines.end == e.lines.end)
      return &c;
  return nullptr;
}

bool holdsCall(const py::Expr &value, const py::Call &call) {
  const std::string_view callee = call.callee;
  if (callee.empty())
    return false;
  if (callee.find_first_of("([") == std::string_view::npos)
    return reads(value, callee);
  const std::string_view plain = callee.substr(0, callee.find_first_of("(["));
  const std::string_view root = plain.substr(0, plain.find('.'));
  return !root.empty() && rootName(value) == root && reads(value, plain) && value.lines.begin <= call.lines.begin &&
         call.lines.end <= value.lines.end;
}

bool isComprehension(const py::PythonFacts &py, const py::Expr &e, std::string_view function) {
  if (e.kind != py::ExprKind::Other)
    return false;
  return std::any_of(py.loops.begin(), py.loops.end(), [&](const py::LoopBinding &l) {
    return l.comprehension && l.function == function && l.lines.begin == e.lines.begin && l.lines.end == e.lines.end;
  });
}

bool operandsRead(const py::OperatorUse &op, std::string_view name) { return pytext::mentionsName(op.text, name); }

} // namespace kbaudit::semantic
