#include "kbaudit/semantic/int4_unpack.h"

#include "kbaudit/semantic/expr_structure.h"

namespace kbaudit::semantic {

namespace {

constexpr std::string_view kOperatorForms[] = {">> 4", ">>4", "& 0xF", "&0xF", "& 0xf", "&0xf", "& 15"};
constexpr std::string_view kNamedForms[] = {"bitwise_and", "bitwise_right_shift", "lop3", "prmt"};

} // namespace

bool mentionsUnpack(std::string_view text) {
  for (std::string_view op : kOperatorForms)
    if (text.find(op) != std::string_view::npos)
      return true;
  for (std::string_view op : kNamedForms)
    if (text.find(op) != std::string_view::npos)
      return true;
  return false;
}

bool unpacksNibbles(const py::Expr &e) {
  if (readsMember(e, "bitwise_and") || readsMember(e, "bitwise_right_shift"))
    return true;
  // A value that folds to a string (a CUDA source, a message) computes nothing itself.
  if (e.kind == py::ExprKind::String || e.string)
    return false;
  for (std::string_view op : kOperatorForms)
    if (e.text.find(op) != std::string::npos)
      return true;
  return false;
}

bool kernelMentionsUnpack(const Facts &f, const kernels::Kernel &k) {
  return k.lines.valid() && mentionsUnpack(f.source.lines(k.lines.begin, k.lines.end));
}

} // namespace kbaudit::semantic
