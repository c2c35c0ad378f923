#include "kbaudit/semantic/expr_reads.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_expr_scan.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <cctype>

namespace kbaudit::semantic {

namespace {

bool isChainKind(py::ExprKind k) {
  return k == py::ExprKind::Name || k == py::ExprKind::Attribute || k == py::ExprKind::Subscript ||
         k == py::ExprKind::Call;
}

/// Methods and attributes that return a view of their receiver (or the receiver itself).
bool isViewMethodName(std::string_view m) {
  for (std::string_view v : {"view", "reshape", "view_as", "flatten", "unflatten", "squeeze", "unsqueeze", "transpose",
                             "permute", "t", "expand", "expand_as", "narrow", "select", "contiguous", "detach",
                             "as_strided", "movedim", "swapaxes", "T", "mT", "H", "mH", "data", "diagonal"})
    if (m == v)
      return true;
  return false;
}

bool isInt(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '_'; });
}

/// A subscript item that is a constant window: `:8192`, `0:256`, `::97` (every part empty or an
/// integer literal, at least one non-zero literal).
bool constantWindow(std::string_view item) {
  if (item.find(':') == std::string_view::npos)
    return false;
  bool literal = false;
  std::size_t start = 0;
  while (start <= item.size()) {
    const std::size_t colon = item.find(':', start);
    const std::string_view part =
        pytext::trim(item.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (!part.empty()) {
      if (!isInt(part))
        return false;
      literal |= part.find_first_not_of("0_") != std::string_view::npos;
    }
    if (colon == std::string_view::npos)
      break;
    start = colon + 1;
  }
  return literal;
}

/// Some top-level subscript of `written` holds a constant-window item.
bool hasConstantWindow(std::string_view written) {
  int depth = 0;
  std::size_t open = std::string_view::npos;
  for (std::size_t i = 0; i < written.size(); ++i) {
    const char c = written[i];
    if (c == '[') {
      if (depth++ == 0)
        open = i;
    } else if (c == ']' && depth > 0 && --depth == 0) {
      const std::string_view inside = written.substr(open + 1, i - open - 1);
      int d = 0;
      std::size_t itemStart = 0;
      for (std::size_t j = 0; j <= inside.size(); ++j) {
        if (j < inside.size() && (inside[j] == '(' || inside[j] == '['))
          ++d;
        else if (j < inside.size() && (inside[j] == ')' || inside[j] == ']'))
          --d;
        else if (j == inside.size() || (d == 0 && inside[j] == ',')) {
          if (constantWindow(inside.substr(itemStart, j - itemStart)))
            return true;
          itemStart = j + 1;
        }
      }
    }
  }
  return false;
}

} // namespace

std::string_view dottedName(const py::Expr &e) {
  if (e.names.empty() || e.root.empty())
    return {};
  const std::string &last = e.names.back();
  if (e.kind == py::ExprKind::Name)
    return last == e.root ? std::string_view(last) : std::string_view();
  // An attribute chain adds its prefixes and then itself; `f().x` or `a[0].b` adds no dotted name.
  if (e.kind == py::ExprKind::Attribute && pytext::startsWith(last, e.root + "."))
    return last;
  return {};
}

bool readsSegment(const py::Expr &e, std::string_view segment) {
  if (segment.empty())
    return false;
  for (const std::string &n : e.names)
    if (pytext::lastSegment(n) == segment)
      return true;
  return e.namesTruncated && pytext::mentionsIdentifier(e.text, segment);
}

bool readsAttributeOf(const py::Expr &e, std::string_view root) {
  return !root.empty() && std::any_of(e.names.begin(), e.names.end(), [&](const std::string &n) {
    return n.size() > root.size() + 1 && pytext::startsWith(n, root) && n[root.size()] == '.';
  });
}

bool stepsFrom(const py::Expr &e, std::string_view name) {
  if (e.kind != py::ExprKind::BinaryOp || e.namesTruncated || !reads(e, name))
    return false;
  return std::all_of(e.names.begin(), e.names.end(), [&](const std::string &n) {
    return n == name || (name.size() > n.size() && pytext::startsWith(name, n) && name[n.size()] == '.');
  });
}

std::string storageRoot(const py::Expr &e) {
  // `f()` stores into what the call returns, not into `f`.
  if (e.root.empty() || (e.kind == py::ExprKind::Call && e.names.size() == 1 && e.resolved == e.root))
    return {};
  if (e.root != "self")
    return e.root;
  // The chain's own names come first in walk order: `self.cache` before `self.idx` of
  // `self.cache[self.idx]`.
  for (const std::string &n : e.names)
    if (pytext::startsWith(n, "self."))
      return n.substr(0, n.find('.', 5));
  return e.root;
}

std::string storageRoot(std::string_view text) {
  text = pytext::trim(text);
  std::size_t n = 0;
  while (n < text.size() && pytext::isIdentChar(text[n]))
    ++n;
  if (n == 0 || std::isdigit(static_cast<unsigned char>(text[0])))
    return {};
  if (text.substr(0, n) == "self" && n < text.size() && text[n] == '.') {
    std::size_t m = n + 1;
    while (m < text.size() && pytext::isIdentChar(text[m]))
      ++m;
    return std::string(text.substr(0, m));
  }
  if (n < text.size() && text[n] == '(')
    return {};
  return std::string(text.substr(0, n));
}

bool isViewOf(const py::Expr &e, std::string_view param) {
  if (param.empty() || e.root != param || !isChainKind(e.kind))
    return false;
  // Subscripts, and view-like attributes each called at most once (`.view(-1)`, `.T`).
  const std::vector<py::ChainLink> &links = e.chain;
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (links[i].kind == py::ChainLink::Kind::Subscript)
      continue;
    if (links[i].kind != py::ChainLink::Kind::Attribute || !isViewMethodName(links[i].name))
      return false;
    if (i + 1 < links.size() && links[i + 1].kind == py::ChainLink::Kind::Call)
      ++i;
  }
  return true;
}

std::string constantWindowRoot(const py::Expr &e) {
  if (e.root.empty() || !isChainKind(e.kind) || !hasConstantWindow(e.text))
    return {};
  return e.root;
}

std::string constantWindowRoot(std::string_view written) {
  written = pytext::trim(written);
  std::size_t n = 0;
  while (n < written.size() && pytext::isIdentChar(written[n]))
    ++n;
  if (n == 0 || std::isdigit(static_cast<unsigned char>(written[0])) || !hasConstantWindow(written))
    return {};
  return std::string(written.substr(0, n));
}

bool shapeKeyedTensorTable(const py::Expr &e) {
  return e.kind == py::ExprKind::Dict && (reads(e, "torch.tensor") || reads(e, "torch.as_tensor")) &&
         pyexpr::shapeKeyedLiteralTable(e.text);
}

std::string commandWords(const py::Expr &e) {
  if (e.string)
    return e.string->value;
  std::string out;
  for (const py::Expr &item : e.elements)
    if (item.string)
      out += (out.empty() ? "" : " ") + item.string->value;
  return out;
}

} // namespace kbaudit::semantic
