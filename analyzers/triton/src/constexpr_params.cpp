// Which kernel parameters are tl.constexpr.
//
// The Python facts keep parameter names but not their annotations; an annotation
// `BLOCK: tl.constexpr` shows up only as a NameRef (or a string constant for
// "tl.constexpr") on the signature's lines, outside the kernel's scope. A mention can be
// tied to a parameter when the signature has one parameter per line, which the line
// count between the `def` line and the first fact of the body confirms, or when the
// mentions are one block of lines closing the signature. Parameters that
// Triton only accepts as compile-time values (shapes) are constexpr whatever the layout.

#include "passes.h"

#include <algorithm>

namespace kbaudit::triton::detail {

namespace {
bool mentionsConstexpr(std::string_view resolved) {
  return resolved == "triton.language.constexpr" || resolved == "triton.language.core.constexpr" ||
         resolved == "tl.constexpr";
}

bool isConstexprString(std::string_view s) {
  return s == "constexpr" || s.ends_with(".constexpr");
}

/// First line of the body: the earliest fact whose scope is the kernel or nested in it.
unsigned bodyStart(const Index &index, const py::Function &f) {
  unsigned first = f.lines.end + 1;
  auto inside = [&](const std::string &fn) {
    return fn == f.qualname || (fn.size() > f.qualname.size() && fn.starts_with(f.qualname) &&
                                fn[f.qualname.size()] == '.');
  };
  auto see = [&](const std::string &fn, LineRange l) {
    if (inside(fn) && l.valid())
      first = std::min(first, l.begin);
  };
  const py::PythonFacts &p = index.py();
  for (const auto &x : p.calls) see(x.function, x.lines);
  for (const auto &x : p.assignments) see(x.function, x.lines);
  for (const auto &x : p.branches) see(x.function, x.lines);
  for (const auto &x : p.nameRefs) see(x.function, x.lines);
  for (const auto &x : p.strings) see(x.function, x.lines);
  for (const auto &x : p.selfAccesses) see(x.function, x.lines);
  for (const auto &x : p.identityChecks) see(x.function, x.lines);
  for (const auto &x : p.tryHandlers) see(x.function, x.tryLines);
  for (const auto &x : p.imports) see(x.function, x.lines);
  for (const auto &x : p.functions)
    if (inside(x.qualname) && x.qualname != f.qualname)
      first = std::min(first, x.lines.begin);
  return first;
}

/// The other common layout: ordinary parameters packed several to a line, then the
/// constexprs one per line closing the signature. When the mention lines are one
/// contiguous block at the end, the last (block size) parameters are the constexprs; the
/// parameter just before them may share the block's first line, so it stays Unknown.
bool tailBlock(Kernel &k, std::vector<unsigned> mentions, unsigned defLine, unsigned sigEnd) {
  std::sort(mentions.begin(), mentions.end());
  mentions.erase(std::unique(mentions.begin(), mentions.end()), mentions.end());
  auto block = static_cast<unsigned>(mentions.size());
  bool contiguous = mentions.back() - mentions.front() + 1 == block;
  // The last mention is the last parameter line: `):` and at most one blank line follow.
  // A block starting on the def line says nothing about how many parameters share it.
  if (!contiguous || mentions.front() == defLine || mentions.back() + 2 < sigEnd || block > k.params.size())
    return false;
  auto n = static_cast<unsigned>(k.params.size());
  for (unsigned i = 0; i < n; ++i) {
    Param &p = k.params[i];
    if (i >= n - block) {
      p.constexprState = Constexpr::Yes;
      p.constexprEvidence = "annotation";
    } else {
      p.constexprState = i + 1 == n - block ? Constexpr::Unknown : Constexpr::No;
    }
  }
  return true;
}

void fromAnnotations(const Index &index, const py::Function &f, Kernel &k) {
  unsigned defLine = f.lines.begin;
  for (const auto &d : f.decorators)
    defLine = std::max(defLine, d.lines.end + 1);
  unsigned sigEnd = std::max(defLine, bodyStart(index, f) - 1);
  std::vector<unsigned> mentions;
  for (const auto &r : index.py().nameRefs)
    if (mentionsConstexpr(r.resolved) && r.lines.begin >= defLine && r.lines.begin <= sigEnd)
      mentions.push_back(r.lines.begin);
  for (const auto &s : index.py().strings)
    if (!s.docstring && isConstexprString(s.value.value) && s.lines.begin >= defLine && s.lines.begin <= sigEnd)
      mentions.push_back(s.lines.begin);
  if (mentions.empty())
    return; // every parameter stays No
  auto n = static_cast<unsigned>(k.params.size());
  unsigned span = sigEnd - defLine;
  // `def k(` / one parameter per line / `):` (or the last parameter closing the list),
  // or the first parameter on the def line and one per line after it.
  unsigned firstParamLine = 0;
  if (n > 0 && (span == n || span == n + 1))
    firstParamLine = defLine + 1;
  else if (n > 1 && span == n - 1)
    firstParamLine = defLine;
  bool mapped = firstParamLine != 0 && std::all_of(mentions.begin(), mentions.end(), [&](unsigned l) {
                  return l >= firstParamLine && l < firstParamLine + n;
                });
  if (!mapped && tailBlock(k, mentions, defLine, sigEnd))
    return;
  for (unsigned i = 0; i < n; ++i) {
    Param &p = k.params[i];
    if (!mapped) {
      p.constexprState = Constexpr::Unknown;
      continue;
    }
    bool yes = std::find(mentions.begin(), mentions.end(), firstParamLine + i) != mentions.end();
    p.constexprState = yes ? Constexpr::Yes : Constexpr::No;
    if (yes)
      p.constexprEvidence = "annotation";
  }
}

void markShapeUse(Kernel &k, const py::Expr &e) {
  auto mark = [&](const py::Expr &x) {
    if (x.kind != py::ExprKind::Name)
      return;
    for (auto &p : k.params)
      if (p.name == x.text && p.constexprState != Constexpr::Yes) {
        p.constexprState = Constexpr::Yes;
        p.constexprEvidence = "shape-use";
      }
  };
  mark(e);
  for (const auto &el : e.elements)
    mark(el);
}

/// Arguments Triton requires to be compile-time values.
void fromShapeUses(const Index &index, const py::Function &f, Kernel &k) {
  for (const py::Call *c : index.callsIn(f.qualname)) {
    std::string_view name = lastSegment(c->resolved);
    bool lib = isTritonName(c->resolved);
    if (lib && (name == "arange" || name == "static_range")) {
      for (const auto &arg : c->args)
        markShapeUse(k, arg.value);
    } else if (lib && (name == "zeros" || name == "full")) {
      if (const py::Expr *shape = argumentFor(c->args, 0, "shape"))
        markShapeUse(k, *shape);
    } else if (name == "reshape" || name == "view" || name == "broadcast_to") {
      // tl.reshape(x, shape) / x.reshape(shape) / x.reshape(M, N): every argument after
      // the tensor is part of the shape.
      unsigned skip = lib ? 1 : 0, positional = 0;
      for (const auto &arg : c->args)
        if ((arg.keyword.empty() && positional++ >= skip) || arg.keyword == "shape")
          markShapeUse(k, arg.value);
    }
  }
}
} // namespace

void inferConstexpr(Analysis &a, unsigned kernel) {
  const py::Function &f = *a.kernelDefs[kernel];
  Kernel &k = a.out.kernels[kernel];
  fromAnnotations(a.index, f, k);
  fromShapeUses(a.index, f, k);
}

} // namespace kbaudit::triton::detail
