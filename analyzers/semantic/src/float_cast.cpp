#include "kbaudit/semantic/float_cast.h"

#include "kbaudit/python/dtype.h"
#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/static_value.h"

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

std::string conversionTarget(const py::PythonFacts &py, const py::Call &c) {
  if (c.receiver.empty() || !c.launchedKernel.empty())
    return {};
  if (c.method == "half")
    return "fp16";
  if (c.method == "bfloat16")
    return "bf16";
  if (c.method != "to" && c.method != "type")
    return {};
  const auto dtypeOf = [&](const py::Expr &e) -> std::string {
    if (e.kind != py::ExprKind::Attribute && e.kind != py::ExprKind::Name)
      return {};
    std::optional<std::string> text = staticText(py, e);
    if (!text)
      return {};
    std::string t = *text;
    if (t.ends_with("Tensor")) // torch.cuda.HalfTensor
      t.resize(t.size() - 6);
    return dtype::canonicalDtype(t);
  };
  if (const py::Argument *kw = c.keywordArg("dtype"))
    return dtypeOf(kw->value);
  for (const py::Argument &a : c.args)
    if (a.keyword.empty())
      if (std::string d = dtypeOf(a.value); !d.empty())
        return d;
  return {};
}

} // namespace kbaudit::semantic::floatcast
