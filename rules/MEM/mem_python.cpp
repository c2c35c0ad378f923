#include "mem_python.h"

#include "forward_entry.h"
#include "semantic_names.h"

#include "kbaudit/semantic/expr_query.h"

#include <algorithm>
#include <array>

namespace kbaudit::rules::mem {

using namespace pytext;

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
  const std::string root(semantic::rootName(e));
  if (root.empty())
    return false;
  return std::none_of(e.names.begin(), e.names.end(), [&](const std::string &n) { return startsWith(n, root + "."); });
}

/// `e` is a part or view of one of `names`: the name itself, an item, a view attribute or a
/// view method called on it (`x.view(-1)`, `x.contiguous()`).
bool isPartOf(const py::Expr &e, const std::set<std::string> &names) {
  const bool rooted = names.count(std::string(semantic::rootName(e))) > 0;
  if (e.kind == py::ExprKind::Name || isItemOf(e) || isViewAttribute(e))
    return rooted;
  if (e.kind == py::ExprKind::Call)
    return rooted && isViewMethod(lastSegment(e.resolved));
  return false;
}

} // namespace

std::set<std::string> reachableFunctions(const Facts &f) {
  std::set<std::string> out = reachableFromForward(f);
  if (out.empty())
    for (const py::Function &fn : f.python.functions)
      if (!fn.className.empty())
        out.insert(fn.qualname);
  return out;
}

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

std::set<std::string> inputNames(const py::PythonFacts &facts, const py::Function &fn) {
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

std::vector<Statement> returns(const py::PythonFacts &facts, const py::Function &fn) {
  std::vector<Statement> out;
  for (const py::Return &r : facts.returns)
    if (r.function == fn.qualname)
      out.push_back(Statement{r.lines, &r.value});
  return out;
}

std::vector<const py::Expr *> returnedItems(const py::Expr &returned) {
  std::vector<const py::Expr *> out;
  if ((returned.kind == py::ExprKind::Tuple || returned.kind == py::ExprKind::List) && !returned.elements.empty()) {
    for (const py::Expr &e : returned.elements)
      out.push_back(&e);
    return out;
  }
  if (returned.lines.valid()) // a bare `return` returns nothing
    out.push_back(&returned);
  return out;
}

bool within(LineRange inner, LineRange outer) {
  return inner.begin >= outer.begin && inner.begin <= outer.end && outer.begin != 0;
}

BranchBlocks blocksOf(const py::Branch &b) {
  BranchBlocks out;
  if (b.arms.empty())
    return out;
  const py::BranchArm &arm = b.arms.front();
  out.body = arm.body;
  out.inlineBody = arm.body.begin <= arm.test.end; // `if c: stmt`
  // The else block, when the next arm is the else (not a later elif).
  if (b.arms.size() > 1 && b.arms[1].kind == "else")
    out.orelse = b.arms[1].body;
  return out;
}

bool isInertCall(const py::Call &c) {
  if (!c.launchedKernel.empty())
    return false;
  static constexpr std::array<std::string_view, 56> kInert = {
      "clone",      "detach",   "view",        "view_as",   "reshape",     "contiguous", "to",
      "t",          "transpose", "permute",    "squeeze",   "unsqueeze",   "expand",     "expand_as",
      "narrow",     "flatten",  "float",       "half",      "bfloat16",    "cpu",        "cuda",
      "item",       "size",     "dim",         "numel",     "data_ptr",    "stride",     "is_contiguous",
      "get",        "getattr",  "len",         "isinstance", "hasattr",    "id",         "tuple",
      "list",       "int",      "bool",        "max",       "min",         "range",      "zip",
      "enumerate",  "type",     "items",       "keys",      "values",      "copy_",      "empty",
      "empty_like", "new_empty", "zeros_like", "record_stream", "print",   "synchronize", "current_stream"};
  const std::string_view m = c.method.empty() ? std::string_view(c.callee) : std::string_view(c.method);
  return std::find(kInert.begin(), kInert.end(), m) != kInert.end();
}

std::vector<const py::Call *> callsOn(const py::PythonFacts &facts, std::string_view fn, LineRange lines) {
  std::vector<const py::Call *> out;
  const std::string prefix = std::string(fn) + ".";
  for (const py::Call &c : facts.calls)
    if ((c.function == fn || startsWith(c.function, prefix)) && c.lines.begin >= lines.begin &&
        c.lines.begin <= lines.end)
      out.push_back(&c);
  return out;
}

} // namespace kbaudit::rules::mem
