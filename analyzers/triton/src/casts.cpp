// Casts inside kernels, and what a dtype expression names.

#include "dtypes.h"
#include "passes.h"

namespace kbaudit::triton::detail {

namespace {
std::string canonicalOf(const Index &index, const py::Expr &e, std::string_view function, unsigned depth) {
  std::string d = canonicalDtype(e.resolved);
  if (!d.empty() || depth > 4)
    return d;
  if (e.kind == py::ExprKind::Name) {
    // `DT = tl.bfloat16` at module level, or a kernel-local alias.
    if (const py::Assignment *b = index.bindingBefore(function, e.text, e.lines.begin, true))
      if (b->lines.begin != e.lines.begin || b->function != function)
        return canonicalOf(index, b->value, b->function, depth + 1);
    return {};
  }
  if (e.kind == py::ExprKind::Call && lastSegment(e.resolved) == "constexpr") // tl.constexpr(tl.float16)
    if (const py::Call *c = index.callFor(e, function))
      if (const py::Expr *v = argumentFor(c->args, 0, "value"))
        return canonicalOf(index, *v, function, depth + 1);
  return {};
}

bool isTrue(const py::Argument *a) { return a && a->value.kind == py::ExprKind::Bool && a->value.text == "True"; }
} // namespace

DtypeRef dtypeOf(const Index &index, const py::Expr &e, std::string_view function) {
  return DtypeRef{e.text, canonicalOf(index, e, function, 0)};
}

std::optional<Cast> castOf(const Analysis &a, const py::Call &c, unsigned kernel) {
  const py::Expr *source = nullptr, *target = nullptr;
  if (isTritonName(c.resolved)) {
    if (lastSegment(c.resolved) != "cast")
      return std::nullopt;
    source = argumentFor(c.args, 0, "input");
    target = argumentFor(c.args, 1, "dtype");
  } else if (c.method == "to" && !c.receiver.empty()) {
    target = argumentFor(c.args, 0, "dtype");
  } else {
    return std::nullopt;
  }
  if (!target)
    return std::nullopt;
  Cast cast;
  cast.kernel = kernel;
  cast.source = source ? source->text : c.receiver;
  cast.target = dtypeOf(a.index, *target, c.function);
  cast.bitcast = isTrue(c.keywordArg("bitcast"));
  cast.lines = c.lines;
  return cast;
}

void findCasts(Analysis &a) {
  for (unsigned k = 0; k < a.out.kernels.size(); ++k)
    for (const py::Call *c : a.index.callsIn(a.out.kernels[k].qualname))
      if (auto cast = castOf(a, *c, k))
        a.out.casts.push_back(std::move(*cast));
}

} // namespace kbaudit::triton::detail
