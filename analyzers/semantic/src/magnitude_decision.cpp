#include "kbaudit/semantic/magnitude_decision.h"

#include "kbaudit/semantic/python_text.h"

#include <set>

namespace kbaudit::semantic {

using pytext::lastSegment;
using pytext::startsWith;

/// A tensor statistic of values: |x|, norms, spreads and NaN/Inf tests are magnitude by
/// construction; a bare max/min may be routing metadata (longest sequence, busiest expert).
Strength statisticStrength(std::string_view resolvedCallee) {
  // Python scalars and host libraries: the tensor statistic underneath is what counts.
  if (resolvedCallee.find('.') == std::string_view::npos || startsWith(resolvedCallee, "math.") ||
      startsWith(resolvedCallee, "numpy.") || startsWith(resolvedCallee, "np.") ||
      startsWith(resolvedCallee, "triton."))
    return Strength::None;
  static const std::set<std::string_view> strong = {
      "abs",      "absolute", "amax",     "amin",       "aminmax",    "norm",  "vector_norm", "matrix_norm",
      "isnan",    "isinf",    "isfinite", "isposinf",   "isneginf",   "std",   "var",         "std_mean",
      "var_mean", "nanmax",   "nanmin",   "frobenius_norm"};
  const std::string_view m = lastSegment(resolvedCallee);
  if (strong.count(m))
    return Strength::Strong;
  if (m == "max" || m == "min")
    return Strength::Weak;
  return Strength::None;
}

/// Calls that turn a device statistic into a host decision, and expressions that only
/// combine decisions: taint flows through these, never through tensor arithmetic, so a
/// per-tensor scale that feeds quantization does not turn later shape tests into gates.
bool carriesDecision(const py::Expr &value) {
  switch (value.kind) {
  case py::ExprKind::Name:
  case py::ExprKind::Attribute:
  case py::ExprKind::Comparison:
  case py::ExprKind::BoolOp:
  case py::ExprKind::UnaryOp:
  case py::ExprKind::Conditional:
  case py::ExprKind::Subscript:
    return true;
  case py::ExprKind::Call: {
    static const std::set<std::string_view> decisive = {
        "item", "tolist", "cpu", "any", "all", "bool", "int", "float", "max", "min", "amax", "amin",
        "norm", "vector_norm", "isnan", "isinf", "isfinite", "std", "var", "mean", "abs"};
    return decisive.count(lastSegment(value.resolved)) > 0;
  }
  default:
    return false;
  }
}

bool readsBack(std::string_view resolvedCallee) {
  static const std::set<std::string_view> reads = {"item", "tolist", "cpu", "numpy", "any", "all"};
  return reads.count(lastSegment(resolvedCallee)) > 0;
}

} // namespace kbaudit::semantic
