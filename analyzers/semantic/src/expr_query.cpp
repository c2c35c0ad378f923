#include "kbaudit/semantic/expr_query.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {

bool reads(const py::Expr &e, std::string_view name) {
  if (name.empty())
    return false;
  if (std::find(e.names.begin(), e.names.end(), name) != e.names.end())
    return true;
  return e.namesTruncated && pytext::mentionsName(e.text, name);
}

std::string_view rootName(const py::Expr &e) { return e.root; }

bool isName(const py::Expr &e, std::string_view name) {
  return e.kind == py::ExprKind::Name && !name.empty() && e.root == name;
}

bool isPath(const py::Expr &e, std::string_view dotted) {
  if (e.root.empty() || (e.kind != py::ExprKind::Name && e.kind != py::ExprKind::Attribute))
    return false;
  std::string path = e.root;
  for (const py::ChainLink &l : e.chain) {
    if (l.kind != py::ChainLink::Kind::Attribute)
      return false;
    path += "." + l.name;
  }
  return path == dotted;
}

std::optional<bool> boolLiteral(const py::Expr &e) {
  if (e.kind != py::ExprKind::Bool)
    return std::nullopt;
  return e.text == "True";
}

std::string quote(const py::Expr &e, std::size_t max) {
  std::string out;
  bool space = false;
  for (char c : pytext::trim(e.text)) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      space = true;
      continue;
    }
    if (space && !out.empty())
      out += ' ';
    space = false;
    out += c;
  }
  if (out.size() <= max)
    return out;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) // not inside a UTF-8 sequence
    --cut;
  out.resize(cut);
  return out + "...";
}

} // namespace kbaudit::semantic
