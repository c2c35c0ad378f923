// MEM002 uninitialized-output: forward returns memory from torch.empty (or at::empty in an
// extension) that no kernel or operation writes on the path that returns it.

#include "all_checks.h"
#include "mem_python.h"
#include "semantic_names.h"

#include "kbaudit/semantic/buffer_writes.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/host_function_body.h"

namespace kbaudit::rules {
namespace {

namespace cxxbody = semantic::cxxbody;

bool isEmptyAllocation(const py::Expr &v) {
  if (v.kind != py::ExprKind::Call)
    return false;
  const std::string_view r = v.resolved;
  for (std::string_view f : {"torch.empty", "torch.empty_like", "torch.empty_strided"})
    if (r == f)
      return true;
  const std::string_view method = pytext::lastSegment(r);
  return method == "new_empty" || method == "new_empty_strided";
}

/// Branch tests that depend on what happened in earlier calls (a counter, a flag the method
/// sets, the identity of the input): skipping a write on them is the stale-memory hack.
bool stateDependent(const py::Branch &b) {
  for (py::ConditionTag t : b.tags)
    if (t == py::ConditionTag::CallCounter || t == py::ConditionTag::Identity || t == py::ConditionTag::Pointer ||
        t == py::ConditionTag::Version || t == py::ConditionTag::Attribute)
      return true;
  return false;
}

class Mem002 final : public Check {
public:
  std::string_view id() const override { return "MEM002"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const std::set<std::string> producers = outputProducers(f);
    for (const py::Assignment &a : f.python.assignments) {
      if (a.kind != py::Assignment::TargetKind::Name || a.op != "=" || !producers.count(a.function) ||
          !isEmptyAllocation(a.value))
        continue;
      if (const py::Function *fn = f.python.findFunction(a.function))
        checkPythonAllocation(f, *fn, a, sink);
    }
    checkExtensions(f, sink);
  }

private:
  /// Functions whose return value is the entry point's output: the entry points and the
  /// functions they return the result of (`return self._run(x)`). A helper that hands an empty
  /// buffer to a caller that fills it is not suspicious.
  static std::set<std::string> outputProducers(const Facts &f) {
    std::set<std::string> out(f.kernels.entryPoints.begin(), f.kernels.entryPoints.end());
    for (const std::string &entry : f.kernels.entryPoints) {
      const py::Function *fn = f.python.findFunction(entry);
      if (!fn)
        continue;
      for (const mem::Statement &r : mem::returns(f.python, *fn))
        for (const py::Call &c : f.python.calls) // a call inside the returned value
          if (c.function == fn->qualname && r.lines.contains(c.lines.begin))
            for (const py::Function &g : f.python.functions) {
              const bool method = g.className == fn->className && g.qualname == g.className + "." + g.name;
              const bool free = g.className.empty() && g.qualname == g.name;
              if ((method && c.callee == "self." + g.name) || (free && c.callee == g.name))
                out.insert(g.qualname);
            }
    }
    return out;
  }

  /// A return under a test of the arguments (`if n == 0: return out`): nothing to write.
  static bool underArgumentGuard(const Facts &f, const py::Function &fn, LineRange ret) {
    for (const py::Branch &b : f.python.branches) {
      if (b.function != fn.qualname || (b.kind != "if" && b.kind != "elif"))
        continue;
      const mem::BranchBlocks blocks = mem::blocksOf(b);
      if (!mem::within(ret, blocks.body) && !(blocks.inlineBody && b.lines.contains(ret.begin)))
        continue;
      // Early exits on the arguments (an empty problem size, say) are not the hack; an exit
      // on state left by earlier calls is.
      if (!stateDependent(b))
        return true;
    }
    return false;
  }

  static const mem::Statement *returnOf(const Facts &f, const py::Function &fn, const std::vector<mem::Statement> &rets,
                                        const std::string &name, unsigned after) {
    for (const mem::Statement &r : rets) {
      if (r.lines.begin <= after || underArgumentGuard(f, fn, r.lines))
        continue;
      for (const py::Expr *item : mem::returnedItems(*r.value))
        if (semantic::rootName(*item) == name) // the buffer itself, an item or a view of it
          return &r;
    }
    return nullptr;
  }

  static void checkPythonAllocation(const Facts &f, const py::Function &fn, const py::Assignment &alloc,
                                    FindingSink &sink) {
    const std::string &name = alloc.target;
    const std::vector<mem::Statement> rets = mem::returns(f.python, fn);
    const mem::Statement *ret = returnOf(f, fn, rets, name, alloc.lines.end);
    if (!ret)
      return;
    // Rebound in between: what is returned is not this allocation.
    for (const py::Assignment &s : f.python.assignments)
      if (s.function == fn.qualname && s.kind == py::Assignment::TargetKind::Name && s.target == name &&
          s.lines.begin > alloc.lines.end && s.lines.begin < ret->lines.begin)
        return;
    const std::vector<LineRange> uses = semantic::mentionsThatMayWrite(f.python, fn, name, alloc.lines.end, ret->lines.begin);
    const std::string what = alloc.value.resolved.empty() ? semantic::quote(alloc.value) : alloc.value.resolved;
    if (uses.empty()) {
      sink.report(alloc.lines, {{"buffer", name}, {"alloc", what}, {"path", "on every path"}},
                  "no call, kernel launch or assignment receives `" + name + "` before `return " + semantic::quote(*ret->value) + "`");
      return;
    }
    // Every write sits under a test of earlier calls' state that the return does not share.
    const py::Branch *guard = nullptr;
    for (const LineRange &u : uses) {
      const py::Branch *g = guardOf(f, fn, u, alloc.lines, ret->lines);
      if (!g || !stateDependent(*g))
        return;
      guard = g;
    }
    if (!guard || coveredByElse(f, fn, uses, *guard))
      return;
    sink.report(alloc.lines,
                {{"buffer", name}, {"alloc", what}, {"path", "whenever `" + guard->condition + "` is false"}},
                "the only writes are under `if " + guard->condition + "` (line " + std::to_string(guard->lines.begin) +
                    "), which tests state left by earlier calls");
  }

  /// The innermost if-branch of `fn` whose blocks hold `use` but neither the allocation nor
  /// the return.
  static const py::Branch *guardOf(const Facts &f, const py::Function &fn, LineRange use, LineRange alloc,
                                   LineRange ret) {
    const py::Branch *best = nullptr;
    for (const py::Branch &b : f.python.branches) {
      if (b.function != fn.qualname || (b.kind != "if" && b.kind != "elif"))
        continue;
      const mem::BranchBlocks blocks = mem::blocksOf(b);
      const bool holds = mem::within(use, blocks.body) || mem::within(use, blocks.orelse);
      if (!holds || b.body.contains(alloc.begin) || b.body.contains(ret.begin) || blocks.inlineBody)
        continue;
      if (!best || b.lines.begin > best->lines.begin)
        best = &b;
    }
    return best;
  }

  /// Writes on both sides of the guard: every path writes.
  static bool coveredByElse(const Facts &, const py::Function &, const std::vector<LineRange> &uses, const py::Branch &g) {
    const mem::BranchBlocks blocks = mem::blocksOf(g);
    bool body = false, orelse = false;
    for (const LineRange &u : uses) {
      body |= mem::within(u, blocks.body);
      orelse |= mem::within(u, blocks.orelse);
    }
    return body && orelse;
  }

  /// Host functions of embedded C++ that return an at::empty result nothing else mentions.
  static void checkExtensions(const Facts &f, FindingSink &sink) {
    for (const cxxbody::UnwrittenEmptyReturn &r : cxxbody::unwrittenEmptyReturns(f))
      sink.report({r.line, r.line}, {{"buffer", r.name}, {"alloc", r.allocator}, {"path", "on every path"}},
                  "extension function " + r.function + " returns `" + r.name +
                      "` without passing it to a kernel or writing it");
  }
};

} // namespace

std::unique_ptr<Check> makeMem002() { return std::make_unique<Mem002>(); }

} // namespace kbaudit::rules
