// Branch conditions that test a magnitude statistic (magnitude_gate.h).

#include "kbaudit/semantic/magnitude_gate.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

namespace kbaudit::semantic {
namespace {

using pytext::classOf;
using pytext::lineText;
using pytext::startsWith;

std::string_view receiverOf(std::string_view dotted) {
  const auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? std::string_view{} : dotted.substr(0, dot);
}

/// The scope key a name read in `function` refers to: self attributes live on the class,
/// other names in the function (module names are looked up as a fallback).
std::string keyOf(std::string_view function, std::string_view name) {
  if (startsWith(name, "self."))
    return classOf(function) + "#" + std::string(name);
  return std::string(function) + ":" + std::string(name);
}

bool stronger(const MagnitudeOrigin &o, const std::optional<MagnitudeOrigin> &best) {
  return !best || static_cast<int>(o.strength) > static_cast<int>(best->strength);
}

} // namespace

MagnitudeGates::MagnitudeGates(const Facts &f, const std::set<std::string> &reachable) : f_(f), reachable_(reachable) {
  collectDetectorBuffers();
  collectTaint();
}

const MagnitudeOrigin *MagnitudeGates::lookup(const std::map<std::string, MagnitudeOrigin> &m,
                                              std::string_view function, std::string_view name) const {
  if (auto it = m.find(keyOf(function, name)); it != m.end())
    return &it->second;
  if (auto it = m.find(keyOf("", name)); it != m.end())
    return &it->second;
  return nullptr;
}

/// Triton kernels that reduce |x| (or NaN/Inf tests) to a flag or a maximum: the buffers
/// passed to their launches hold a magnitude statistic once read back.
void MagnitudeGates::collectDetectorBuffers() {
  std::set<unsigned> detectors;
  for (unsigned k = 0; k < f_.triton.kernels.size(); ++k) {
    bool absLike = false, maxLike = false;
    for (const triton::Op &op : f_.triton.ops) {
      if (op.kernel != k)
        continue;
      if (op.name == "abs" || op.name == "fabs" || op.name == "isnan" || op.name == "isinf" ||
          op.name == "isfinited" || op.name == "isinfd" || op.name == "isnand")
        absLike = true;
      if (op.kind == triton::OpKind::Reduction && (op.name == "max" || op.name == "min" || op.name == "reduce"))
        maxLike = true;
      if (op.kind == triton::OpKind::Atomic && (op.name == "atomic_max" || op.name == "atomic_or"))
        maxLike = true;
    }
    // A kernel that also multiplies matrices is a GEMM with a fused epilogue, not a probe.
    if (absLike && maxLike && !f_.triton.kernels[k].work.matmul)
      detectors.insert(k);
  }
  for (const triton::Launch &l : f_.triton.launches) {
    if (!l.kernel || !detectors.count(*l.kernel) || !reachable_.count(l.function))
      continue;
    const triton::Kernel &k = f_.triton.kernels[*l.kernel];
    MagnitudeOrigin o{Strength::Strong, "max |x| reduced by Triton kernel " + k.name + " (" + lineText(l.lines) + ")",
                      l.lines};
    for (const py::Argument &a : l.args)
      if (a.keyword.empty() && (a.value.kind == py::ExprKind::Name || a.value.kind == py::ExprKind::Attribute))
        detectorBuffers_.emplace(keyOf(l.function, a.value.resolved), o);
  }
}

/// The strongest statistic among calls on `lines` of `function`, if any.
std::optional<MagnitudeOrigin> MagnitudeGates::statisticOn(std::string_view function, LineRange lines) const {
  std::optional<MagnitudeOrigin> best;
  for (const py::Call &c : f_.python.calls) {
    if (c.function != function || !lines.contains(c.lines.begin))
      continue;
    MagnitudeOrigin o;
    o.lines = lines;
    if (Strength s = statisticStrength(c.resolved); s != Strength::None) {
      o.strength = s;
      o.what = c.callee + "()";
    } else if (readsBack(c.resolved)) {
      const MagnitudeOrigin *d = lookup(detectorBuffers_, function, receiverOf(c.callee));
      if (!d)
        continue;
      o.strength = d->strength;
      o.what = d->what + ", read back with ." + std::string(c.method) + "()";
    } else {
      continue;
    }
    if (stronger(o, best))
      best = o;
  }
  return best;
}

/// Names assigned a magnitude decision, followed through plain re-assignments and boolean
/// combinations (a few rounds suffice for real code).
void MagnitudeGates::collectTaint() {
  for (int round = 0; round < 4; ++round) {
    bool grew = false;
    for (const py::Assignment &a : f_.python.assignments) {
      if (!reachable_.count(a.function) && !a.function.empty())
        continue;
      if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
        continue;
      if (!carriesDecision(a.value))
        continue;
      const std::string key = keyOf(a.function, a.target);
      if (tainted_.count(key))
        continue;
      std::optional<MagnitudeOrigin> o = statisticOn(a.function, a.lines);
      if (!o)
        o = taintedRead(a.function, a.value);
      if (!o)
        continue;
      o->lines = a.lines; // quote the decision itself
      tainted_.emplace(key, *o);
      grew = true;
    }
    if (!grew)
      break;
  }
}

/// A tainted name the value reads.
std::optional<MagnitudeOrigin> MagnitudeGates::taintedRead(std::string_view function, const py::Expr &value) const {
  for (const auto &[key, origin] : tainted_) {
    const std::string name = key.substr(key.find_first_of(":#") + 1);
    const std::string owner = key.substr(0, key.find_first_of(":#"));
    const bool visible =
        key.find('#') != std::string::npos ? owner == classOf(function) : (owner == function || owner.empty());
    if (visible && reads(value, name))
      return origin;
  }
  return std::nullopt;
}

std::optional<MagnitudeOrigin> MagnitudeGates::gateOf(const py::Branch &b) const {
  std::optional<MagnitudeOrigin> best;
  const auto consider = [&](MagnitudeOrigin o) {
    if (stronger(o, best))
      best = std::move(o);
  };
  for (const std::string &c : b.calls) {
    if (Strength s = statisticStrength(c); s != Strength::None)
      consider(MagnitudeOrigin{s, c + "()", b.lines});
    else if (readsBack(c))
      if (const MagnitudeOrigin *d = lookup(detectorBuffers_, b.function, receiverOf(c)))
        consider(MagnitudeOrigin{d->strength, d->what + ", read back in the condition", b.lines});
  }
  for (const std::string &n : b.names)
    if (const MagnitudeOrigin *t = lookup(tainted_, b.function, n))
      consider(*t);
  return best;
}

} // namespace kbaudit::semantic
