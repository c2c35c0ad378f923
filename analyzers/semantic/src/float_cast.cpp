#include "kbaudit/semantic/float_cast.h"

#include "kbaudit/python/dtype.h"
#include "kbaudit/semantic/python_text.h"

#include <map>

namespace kbaudit::semantic::floatcast {

bool isFloatDtype(std::string_view d) { return d == "bf16" || d == "tf32" || pytext::startsWith(d, "fp"); }

std::optional<HostCast> hostCast(const py::Call &c) {
  static const std::map<std::string_view, std::string_view> methods = {
      {"half", "fp16"}, {"bfloat16", "bf16"}, {"float", "fp32"}, {"double", "fp64"}};
  std::string dtype;
  if (!c.receiver.empty() && c.args.empty())
    if (auto it = methods.find(c.method); it != methods.end())
      dtype = it->second;
  const auto fromArg = [&](const py::Argument *a) {
    if (!a || !dtype.empty())
      return;
    if (a->value.kind != py::ExprKind::Attribute && a->value.kind != py::ExprKind::Name)
      return;
    const std::string d = dtype::canonicalDtype(a->value.resolved.empty() ? a->value.text : a->value.resolved);
    if (isFloatDtype(d))
      dtype = d;
  };
  if (c.method == "to" || c.method == "type") {
    fromArg(c.positionalArg(0));
    fromArg(c.keywordArg("dtype"));
  }
  const bool conversion = !dtype.empty();
  fromArg(c.keywordArg("dtype")); // a factory's `dtype=` (a no-op once a conversion was found)
  if (dtype.empty())
    return std::nullopt;
  return HostCast{dtype, conversion};
}

} // namespace kbaudit::semantic::floatcast
