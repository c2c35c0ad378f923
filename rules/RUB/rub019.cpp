// RUB019 exact-shape-shortcut: a test of an exact problem size selects an arm that answers
// without computing, while another arm computes: the harness's listed cases are recognised by
// their metadata and answered by something other than the kernel.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"

#include "kbaudit/semantic/arm_work.h"
#include "kbaudit/semantic/size_gates.h"

#include <algorithm>

namespace kbaudit::rules {
namespace {

class Rub019 final : public Check {
public:
  std::string_view id() const override { return "RUB019"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    const std::set<std::string> reachable = reachableFromForward(f);
    const semantic::SizeGateNames named(f.python, reachable);
    for (const py::Branch &b : f.python.branches) {
      if ((b.kind != "if" && b.kind != "elif") || !reachable.count(b.function))
        continue;
      std::optional<std::string> gate = semantic::exactSizeGate(f.python, b.test, b.function);
      for (auto n = b.names.begin(); !gate && n != b.names.end(); ++n)
        if (std::optional<std::string> through = named.gateOf(b.function, *n))
          gate = *through + "` through `" + *n;
      if (!gate)
        continue;
      const std::vector<LineRange> arms = semantic::armsOf(f, b);
      bool someComputes = false;
      for (LineRange arm : arms)
        someComputes |= semantic::effectsOf(f, b.function, arm).computes;
      if (!someComputes)
        continue;
      for (LineRange arm : arms)
        if (answersWithoutWork(f, b.function, arm))
          sink.report(arm, {{"function", b.function},
                            {"gate", "`" + *gate + "`"},
                            {"effect", "the recognised case gets an answer no computation made, while the branch's "
                                       "other arm computes"}});
    }
  }

private:
  /// The arm hands back a result (a return, or it is the arm that returns) and computes
  /// nothing; an arm that raises answers nothing.
  static bool answersWithoutWork(const Facts &f, const std::string &fn, LineRange arm) {
    if (!arm.valid() || semantic::effectsOf(f, fn, arm).computes)
      return false;
    const auto inArm = [&](const auto &x) { return x.function == fn && rubscope::contains(arm, x.lines); };
    if (std::any_of(f.python.raises.begin(), f.python.raises.end(), inArm))
      return false;
    return std::any_of(f.python.returns.begin(), f.python.returns.end(), inArm);
  }
};

} // namespace

std::unique_ptr<Check> makeRub019() { return std::make_unique<Rub019>(); }

} // namespace kbaudit::rules
