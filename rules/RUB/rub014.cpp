// RUB014 subclass-answers-comparison: the entry point hands the harness an instance of the
// solution's own torch.Tensor subclass whose methods answer the grader's correctness check
// (`out == ref`, `torch.allclose(out, ref)`, `(out - ref).abs().max()`), so the check runs
// the solution's code instead of comparing values.
//
// Left alone: subclasses used only inside forward (a plain tensor is returned), parameter
// wrappers built in `__init__`, and returned subclasses that single out no comparison (TIME002
// judges those as deferred work).

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"

#include "kbaudit/semantic/tensor_subclass.h"

#include <set>
#include <string>
#include <vector>

namespace kbaudit::rules {
namespace {

class Rub014 final : public Check {
public:
  std::string_view id() const override { return "RUB014"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    const std::set<std::string> reachable = reachableFromForward(f);
    const auto escapes = semantic::escapingSubclassInstances(
        f.python, f.kernels.entryPoints, [&](const std::string &fn) { return reachable.count(fn) > 0; });
    for (const semantic::SubclassEscape &e : escapes) {
      const std::vector<std::string> hooks = semantic::comparisonHooks(f.python, *e.cls);
      if (hooks.empty())
        continue;
      std::string list;
      for (const std::string &h : hooks)
        list += (list.empty() ? "" : ", ") + h;
      const std::string detail = (e.rebindsArgument ? "forward rebinds its argument's class to tensor subclass `"
                                                    : "forward returns an instance of tensor subclass `") +
                                 e.cls->name + "`";
      const bool intercepts = semantic::interceptsTorchOps(*e.cls);
      sink.report(e.lines, {{"detail", detail}, {"hooks", list}},
                  intercepts ? "comparison ops singled out or overridden: " + list
                             : "overridden comparison methods: " + list);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeRub014() { return std::make_unique<Rub014>(); }

} // namespace kbaudit::rules
