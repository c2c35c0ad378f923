// MEM002 uninitialized-output: forward returns memory from torch.empty (or at::empty in an
// extension) that no kernel or operation writes on the path that returns it.

#include "all_checks.h"
#include "mem_python.h"

#include "kbaudit/semantic/buffer_writes.h"
#include "kbaudit/semantic/empty_buffers.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/host_function_body.h"

namespace kbaudit::rules {
namespace {

namespace cxxbody = semantic::cxxbody;

class Mem002 final : public Check {
public:
  std::string_view id() const override { return "MEM002"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    const std::set<std::string> producers = semantic::outputProducers(f);
    for (const py::Assignment &a : f.python.assignments) {
      if (a.kind != py::Assignment::TargetKind::Name || a.op != "=" || !producers.count(a.function) ||
          !semantic::isEmptyAllocation(a.value))
        continue;
      if (const py::Function *fn = f.python.findFunction(a.function))
        checkPythonAllocation(f, *fn, a, sink);
    }
    checkExtensions(f, sink);
  }

private:
  static void checkPythonAllocation(const Facts &f, const py::Function &fn, const py::Assignment &alloc,
                                    FindingSink &sink) {
    const std::string &name = alloc.target;
    const std::optional<semantic::ReturnStatement> ret = semantic::returnOfBuffer(f.python, fn, name, alloc.lines.end);
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
      const py::Branch *g = semantic::writeGuard(f.python, fn, u, alloc.lines, ret->lines);
      if (!g || !semantic::testsCallState(*g))
        return;
      guard = g;
    }
    if (!guard || semantic::writesOnBothSides(uses, *guard))
      return;
    sink.report(alloc.lines,
                {{"buffer", name}, {"alloc", what}, {"path", "whenever `" + guard->condition + "` is false"}},
                "the only writes are under `if " + guard->condition + "` (line " + std::to_string(guard->lines.begin) +
                    "), which tests state left by earlier calls");
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
