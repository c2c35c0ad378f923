// What work each kernel does: the summary rules use to tell a kernel that computes the
// result from one that only touches it on the way out.

#include "identifiers.h"
#include "passes.h"

#include <algorithm>
#include <set>

namespace kbaudit::triton::detail {

namespace {
constexpr unsigned kMaxDepth = 8;

bool isLoadCall(const py::Call &c) {
  std::string_view n = isTritonName(c.resolved) ? lastSegment(c.resolved) : std::string_view();
  if (!n.empty())
    return n == "load" || n == "load_tensor_descriptor" || n == "_experimental_descriptor_load";
  return !c.receiver.empty() && c.method == "load";
}

bool isStoreCall(const py::Call &c) {
  std::string_view n = isTritonName(c.resolved) ? lastSegment(c.resolved) : std::string_view();
  if (!n.empty())
    return n == "store" || n == "store_tensor_descriptor" || n == "_experimental_descriptor_store";
  return !c.receiver.empty() && c.method == "store";
}

bool isLoopCall(const py::Call &c) {
  return c.resolved == "range" || c.resolved == "triton.language.range" ||
         c.resolved == "triton.language.static_range";
}

/// Lines a loop's body can be on: the while body, or everything after a `for` header
/// (the facts give no end for `for` bodies).
struct Loop {
  unsigned header = 0;
  unsigned first = 0, last = 0;
  std::vector<std::string> conditionNames;
  bool contains(unsigned line) const { return line >= first && line <= last; }
};

class KernelWork {
public:
  KernelWork(const Analysis &a, unsigned kernel)
      : a_(a), k_(a.out.kernels[kernel]), calls_(a.index.callsIn(k_.qualname)),
        assignments_(a.index.assignmentsIn(k_.qualname)) {}

  Work direct(unsigned kernel) const {
    Work w;
    for (const auto &op : a_.out.ops) {
      if (op.kernel != kernel)
        continue;
      switch (op.kind) {
      case OpKind::Dot: w.matmul = true; break;
      case OpKind::Reduction: w.reduction = true; break;
      case OpKind::Scan: w.scan = true; break;
      case OpKind::Sort: w.sort = true; break;
      case OpKind::Atomic: w.atomic = true; break;
      case OpKind::Elementwise:
      case OpKind::Libdevice:
      case OpKind::Cast: w.compute = true; break;
      default: break;
      }
    }
    for (const auto &c : a_.out.casts)
      w.compute |= c.kernel == kernel;
    for (const py::Call *c : calls_) {
      w.loads |= isLoadCall(*c);
      if (isStoreCall(*c)) {
        w.stores = true;
        const py::Expr *v = argumentFor(c->args, 1, "value");
        w.compute |= v && !isPlainLoad(*v, 0);
      }
    }
    w.loopReduction = loopReduction();
    return w;
  }

private:
  /// The value is a load, possibly through names: storing it is a copy.
  bool isPlainLoad(const py::Expr &e, unsigned depth) const {
    if (depth > kMaxDepth)
      return false;
    if (e.kind == py::ExprKind::Call) {
      const py::Call *c = a_.index.callFor(e, k_.qualname);
      return c && isLoadCall(*c);
    }
    if (e.kind == py::ExprKind::Name) {
      const py::Assignment *b = a_.index.bindingBefore(k_.qualname, e.text, e.lines.begin, false);
      return b && b->lines.begin != e.lines.begin && isPlainLoad(b->value, depth + 1);
    }
    return false;
  }

  std::vector<Loop> loops() const {
    std::vector<Loop> out;
    for (const py::Call *c : calls_)
      if (isLoopCall(*c))
        out.push_back(Loop{c->lines.begin, c->lines.end + 1, k_.lines.end, {}});
    for (const auto &b : a_.index.py().branches)
      if (b.function == k_.qualname && b.kind == "while")
        out.push_back(Loop{b.lines.begin, b.lines.end + 1, b.body.end, b.names});
    return out;
  }

  /// Names used to address memory: everything in a load's arguments, a store's pointer
  /// and mask, and variables bound to block pointers or descriptors.
  std::set<std::string> addressing() const {
    std::set<std::string> out;
    auto add = [&](const py::Expr *e) {
      if (e)
        for (auto &id : identifiersIn(e->text))
          out.insert(id);
    };
    for (const py::Call *c : calls_) {
      if (isLoadCall(*c)) {
        for (const auto &arg : c->args)
          add(&arg.value);
        if (!isTritonName(c->resolved))
          out.insert(c->receiver);
      } else if (isStoreCall(*c)) {
        add(argumentFor(c->args, 0, "pointer"));
        add(argumentFor(c->args, 2, "mask"));
      }
    }
    for (const py::Assignment *as : assignments_) {
      std::string_view fn = lastSegment(as->value.resolved);
      if (as->value.kind == py::ExprKind::Call &&
          (fn == "make_block_ptr" || fn == "advance" || fn == "make_tensor_descriptor"))
        out.insert(as->target);
    }
    return out;
  }

  bool loopReduction() const {
    std::set<std::string> addr = addressing();
    for (const Loop &loop : loops()) {
      bool loads = std::any_of(calls_.begin(), calls_.end(),
                               [&](const py::Call *c) { return isLoadCall(*c) && loop.contains(c->lines.begin); });
      if (!loads)
        continue;
      for (const py::Assignment *as : assignments_) {
        if (as->kind != py::Assignment::TargetKind::Name || !loop.contains(as->lines.begin) ||
            addr.count(as->target) ||
            std::find(loop.conditionNames.begin(), loop.conditionNames.end(), as->target) !=
                loop.conditionNames.end())
          continue;
        bool initialised = false;
        for (const py::Assignment *init : a_.index.bindingsOf(k_.qualname, as->target))
          initialised |= init->lines.end < loop.header;
        if (!initialised)
          continue;
        bool augmented = as->op != "=" && as->op != ":=";
        if (augmented) {
          if (as->op != "with")
            return true;
          continue;
        }
        auto ids = identifiersIn(as->value.text);
        if (std::find(ids.begin(), ids.end(), as->target) != ids.end())
          return true;
      }
    }
    return false;
  }

  const Analysis &a_;
  const Kernel &k_;
  const std::vector<const py::Call *> &calls_;
  const std::vector<const py::Assignment *> &assignments_;
};

void merge(Work &into, const Work &from) {
  into.matmul |= from.matmul;
  into.reduction |= from.reduction;
  into.scan |= from.scan;
  into.sort |= from.sort;
  into.atomic |= from.atomic;
  into.loopReduction |= from.loopReduction;
  into.loads |= from.loads;
  into.stores |= from.stores;
  into.compute |= from.compute;
}

WorkKind kindOf(const Work &w) {
  if (w.matmul) return WorkKind::Matmul;
  if (w.reduction) return WorkKind::Reduction;
  if (w.loopReduction) return WorkKind::LoopReduction;
  if (w.scan) return WorkKind::Scan;
  if (w.sort) return WorkKind::Sort;
  if (w.atomic) return WorkKind::Atomic;
  if (w.compute) return WorkKind::Elementwise;
  if (w.loads || w.stores) return WorkKind::Copy;
  return WorkKind::Empty;
}
} // namespace

void classifyWork(Analysis &a) {
  auto &kernels = a.out.kernels;
  std::vector<Work> direct;
  for (unsigned i = 0; i < kernels.size(); ++i)
    direct.push_back(KernelWork(a, i).direct(i));
  // A kernel does what the jit helpers it calls do: propagate to a fixpoint (helper
  // graphs are small; a cycle only stops changing).
  std::vector<Work> total = direct;
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned i = 0; i < kernels.size(); ++i) {
      for (unsigned callee : kernels[i].calls) {
        Work before = total[i];
        merge(total[i], total[callee]);
        changed |= !(before == total[i]);
      }
    }
  }
  for (unsigned i = 0; i < kernels.size(); ++i) {
    Work &w = total[i];
    w.elementwiseOnly = !(w.matmul || w.reduction || w.scan || w.sort || w.atomic || w.loopReduction);
    w.copyOnly = w.elementwiseOnly && !w.compute && (w.loads || w.stores);
    kernels[i].work = w;
    kernels[i].kind = kindOf(w);
  }
}

} // namespace kbaudit::triton::detail
