// tl.dot / tl.dot_scaled: arguments as written and folded, and where the operands'
// dtypes come from.

#include "dtypes.h"
#include "identifiers.h"
#include "passes.h"

#include <algorithm>
#include <set>

namespace kbaudit::triton::detail {

namespace {
constexpr unsigned kMaxSteps = 12;

/// An expression summary for a piece of text the facts give as a string (a receiver).
py::Expr exprFromText(std::string text, LineRange lines) {
  py::Expr e;
  e.lines = lines;
  if (isIdentifier(text))
    e.kind = py::ExprKind::Name;
  else if (!text.empty() && text.back() == ')')
    e.kind = py::ExprKind::Call;
  else if (!text.empty() && text.back() == ']')
    e.kind = py::ExprKind::Subscript;
  else
    e.kind = py::ExprKind::Attribute;
  e.text = std::move(text);
  return e;
}

bool isShapeOp(std::string_view name) {
  return name == "trans" || name == "permute" || name == "reshape" || name == "view" || name == "broadcast_to" ||
         name == "expand_dims";
}

class Tracer {
public:
  Tracer(const Analysis &a, unsigned kernel) : a_(a), kernel_(kernel), fn_(a.out.kernels[kernel].qualname) {}

  DotOperand operand(const py::Expr &e) {
    DotOperand op;
    op.text = e.text;
    py::Expr cur = e;
    for (unsigned step = 0; step < kMaxSteps; ++step) {
      op.origin = cur.text;
      op.originLines = cur.lines;
      if (!next(cur, op))
        break;
    }
    choosePointer(op);
    if (op.cast) {
      op.source = DtypeSource::KernelCast;
      op.dtype = op.cast->target.dtype;
    } else if (!constructed_.empty()) {
      op.source = dotResult_ ? DtypeSource::DotResult : DtypeSource::Constructor;
      op.dtype = constructed_;
    } else if (!op.hostCasts.empty()) {
      bool agree = std::all_of(op.hostCasts.begin(), op.hostCasts.end(),
                               [&](const HostCast &h) { return h.target.dtype == op.hostCasts[0].target.dtype; });
      if (agree) {
        op.source = DtypeSource::HostCast;
        op.dtype = op.hostCasts[0].target.dtype;
      }
    }
    return op;
  }

  /// Folded value of a dot argument (see DotArg::folded).
  DotArg arg(const py::Expr *e) const {
    DotArg d;
    if (!e)
      return d;
    d.present = true;
    d.text = e->text;
    d.folded = fold(*e, fn_, 0);
    return d;
  }

private:
  bool isParam(std::string_view name) const {
    for (const auto &p : a_.out.kernels[kernel_].params)
      if (p.name == name)
        return true;
    return false;
  }

  std::string fold(const py::Expr &e, std::string_view function, unsigned depth) const {
    if (e.string)
      return e.string->value;
    switch (e.kind) {
    case py::ExprKind::Bool:
    case py::ExprKind::Number:
    case py::ExprKind::None:
      return e.text;
    default:
      break;
    }
    if (e.number)
      return e.text;
    std::string dtype = dtypeOf(a_.index, e, function).dtype;
    if (!dtype.empty())
      return dtype;
    if (e.kind == py::ExprKind::Name) {
      if (function == fn_ && isParam(e.text))
        return {}; // a constexpr chosen at launch
      if (depth < 4)
        if (const py::Assignment *b = a_.index.bindingBefore(function, e.text, e.lines.begin, true))
          return fold(b->value, b->function, depth + 1);
      return {};
    }
    if (e.kind == py::ExprKind::Attribute) // `c_ptr.dtype.element_ty` is fixed per launch
      return function == fn_ && isParam(e.text.substr(0, e.text.find('.'))) ? std::string() : e.resolved;
    if (e.kind == py::ExprKind::Call && lastSegment(e.resolved) == "constexpr" && depth < 4) // tl.constexpr("tf32")
      if (const py::Call *c = a_.index.callFor(e, function))
        if (const py::Expr *v = argumentFor(c->args, 0, "value"))
          return fold(*v, function, depth + 1);
    return {};
  }

  /// One step back along the operand's dataflow; false when the origin is reached.
  bool next(py::Expr &cur, DotOperand &op) {
    switch (cur.kind) {
    case py::ExprKind::Name: {
      if (isParam(cur.text))
        return false;
      const py::Assignment *b = a_.index.bindingBefore(fn_, cur.text, cur.lines.begin, false);
      if (!b || b->lines.begin == cur.lines.begin) // `x = f(x)` with no earlier binding of x
        return false;
      cur = b->value;
      return true;
    }
    case py::ExprKind::Attribute:
      if (cur.text.ends_with(".T")) { // `b.T` is tl.trans(b)
        cur = exprFromText(cur.text.substr(0, cur.text.size() - 2), cur.lines);
        return true;
      }
      return false;
    case py::ExprKind::Subscript: { // `q[None, :]` adds a unit dimension
      size_t open = cur.text.find('[');
      std::string base = cur.text.substr(0, open);
      if (open == std::string::npos || !isIdentifier(base))
        return false;
      cur = exprFromText(base, cur.lines);
      return true;
    }
    case py::ExprKind::Call:
      return nextFromCall(cur, op);
    default:
      return false;
    }
  }

  bool nextFromCall(py::Expr &cur, DotOperand &op) {
    const py::Call *c = a_.index.callFor(cur, fn_);
    if (!c)
      return false;
    if (auto cast = castOf(a_, *c, kernel_)) {
      if (!op.cast) // the outermost cast decides the dtype; keep walking to find the load
        op.cast = std::move(cast);
      const py::Expr *src = isTritonName(c->resolved) ? argumentFor(c->args, 0, "input") : nullptr;
      cur = src ? *src : exprFromText(c->receiver, c->lines);
      return true;
    }
    bool lib = isTritonName(c->resolved);
    std::string_view name = lib ? lastSegment(c->resolved) : std::string_view(c->method);
    if (!lib && c->receiver.empty())
      return false;
    if (name == "load") {
      op.loaded = true;
      // tl.load(pointer, ...) or desc.load([offsets]) on a tensor descriptor param.
      const py::Expr *ptr = lib ? argumentFor(c->args, 0, "pointer") : nullptr;
      collectPointerParams(ptr ? *ptr : exprFromText(c->receiver, c->lines));
      return false;
    }
    if (isShapeOp(name)) {
      const py::Expr *src = lib ? argumentFor(c->args, 0, "input") : nullptr;
      if (lib && !src)
        return false;
      cur = lib ? *src : exprFromText(c->receiver, c->lines);
      return true;
    }
    if (lib && name == "dot") {
      // A chained product: the inner dot's result type, float32 unless out_dtype says.
      const py::Expr *out = argumentFor(c->args, 6, "out_dtype");
      constructed_ = out ? dtypeOf(a_.index, *out, fn_).dtype : "fp32";
      dotResult_ = true;
      return false;
    }
    if (lib && (name == "zeros" || name == "full" || name == "zeros_like" || name == "full_like")) {
      unsigned at = name == "zeros" ? 1 : name == "full" ? 2 : 99;
      if (const py::Expr *d = argumentFor(c->args, at, "dtype"))
        constructed_ = dtypeOf(a_.index, *d, fn_).dtype;
      return false;
    }
    return false;
  }

  void collectPointerParams(const py::Expr &ptr) {
    std::set<std::string> seen;
    collect(ptr, seen, 0);
  }

  void collect(const py::Expr &e, std::set<std::string> &seen, unsigned depth) {
    for (const auto &id : identifiersIn(e.text)) {
      if (!seen.insert(id).second)
        continue;
      if (isParam(id)) {
        candidates_.push_back(id);
        continue;
      }
      if (depth < kMaxSteps)
        if (const py::Assignment *b = a_.index.bindingBefore(fn_, id, e.lines.begin, false))
          collect(b->value, seen, depth + 1);
    }
  }

  std::vector<HostCast> hostCastsFor(std::string_view param) const {
    std::vector<HostCast> out;
    const Kernel &k = a_.out.kernels[kernel_];
    unsigned index = 0;
    while (index < k.params.size() && k.params[index].name != param)
      ++index;
    for (unsigned l = 0; l < a_.out.launches.size(); ++l) {
      const Launch &launch = a_.out.launches[l];
      if (std::find(launch.candidates.begin(), launch.candidates.end(), kernel_) == launch.candidates.end())
        continue;
      if (const py::Expr *arg = argumentFor(launch.args, index, param))
        if (auto h = hostDtypeOf(a_.index, *arg, launch.function))
          out.push_back(HostCast{l, h->target, h->function, h->lines});
    }
    return out;
  }

  void choosePointer(DotOperand &op) {
    for (const auto &c : candidates_) {
      auto casts = hostCastsFor(c);
      if (!casts.empty()) {
        op.pointerParam = c;
        op.hostCasts = std::move(casts);
        return;
      }
    }
    if (!candidates_.empty())
      op.pointerParam = candidates_.front();
  }

  const Analysis &a_;
  unsigned kernel_;
  std::string fn_;
  std::vector<std::string> candidates_; ///< params the loaded pointer is built from
  std::string constructed_;             ///< dtype of a tl.zeros / tl.full / inner-dot origin
  bool dotResult_ = false;              ///< constructed_ comes from an inner tl.dot
};

std::string precisionOf(const DotArg &inputPrecision, const DotArg &allowTf32) {
  if (inputPrecision.present && inputPrecision.folded != "None")
    return inputPrecision.folded;
  if (allowTf32.present && allowTf32.folded != "None") {
    if (allowTf32.folded == "True")
      return "tf32";
    if (allowTf32.folded == "False")
      return "ieee";
    return {};
  }
  return "default";
}
} // namespace

void findDots(Analysis &a) {
  for (unsigned k = 0; k < a.out.kernels.size(); ++k) {
    for (const py::Call *c : a.index.callsIn(a.out.kernels[k].qualname)) {
      if (!isTritonName(c->resolved))
        continue;
      std::string_view name = lastSegment(c->resolved);
      if (name != "dot" && name != "dot_scaled")
        continue;
      Dot d;
      d.kernel = k;
      d.scaled = name == "dot_scaled";
      d.resolved = c->resolved;
      d.lines = c->lines;
      Tracer folder(a, k); // operands get a Tracer each: it keeps per-operand state
      const auto &args = c->args;
      if (!d.scaled) {
        for (auto [i, kw] : {std::pair{0u, "input"}, std::pair{1u, "other"}})
          if (const py::Expr *e = argumentFor(args, i, kw))
            d.operands.push_back(Tracer(a, k).operand(*e));
        d.acc = folder.arg(argumentFor(args, 2, "acc"));
        d.inputPrecision = folder.arg(argumentFor(args, 3, "input_precision"));
        d.allowTf32 = folder.arg(argumentFor(args, 4, "allow_tf32"));
        d.maxNumImpreciseAcc = folder.arg(argumentFor(args, 5, "max_num_imprecise_acc"));
        d.outDtype = folder.arg(argumentFor(args, 6, "out_dtype"));
        d.precision = precisionOf(d.inputPrecision, d.allowTf32);
      } else {
        d.lhsFormat = folder.arg(argumentFor(args, 2, "lhs_format"));
        d.rhsFormat = folder.arg(argumentFor(args, 5, "rhs_format"));
        for (auto [i, kw, fmt] : {std::tuple{0u, "lhs", &d.lhsFormat}, std::tuple{3u, "rhs", &d.rhsFormat}}) {
          if (const py::Expr *e = argumentFor(args, i, kw)) {
            DotOperand op = Tracer(a, k).operand(*e);
            std::string byFormat = scaledFormatDtype(fmt->folded);
            if (!byFormat.empty()) {
              op.source = DtypeSource::Format;
              op.dtype = byFormat;
            }
            d.operands.push_back(std::move(op));
          }
        }
        d.acc = folder.arg(argumentFor(args, 6, "acc"));
        d.fastMath = folder.arg(argumentFor(args, 7, "fast_math"));
        d.outDtype = folder.arg(argumentFor(args, 8, "out_dtype"));
        // Scaled dots run at the operands' formats; there is no tf32 choice to make.
        d.precision = "scaled";
      }
      a.out.dots.push_back(std::move(d));
    }
  }
}

} // namespace kbaudit::triton::detail
