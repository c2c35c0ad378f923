// RUB010 interpreter-introspection: the solution reaches the harness's objects through the
// interpreter (the garbage collector's object lists, its callers' frames and their
// namespaces) instead of computing from its arguments, and alters what it finds or hands it
// back as its result. Branching on who the caller is belongs to RUB001.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/semantic/interpreter_reach.h"

namespace kbaudit::rules {
namespace {

using namespace pytext;
namespace interp = semantic::interp;
using interp::InterpreterReach;

class Rub010 final : public Check {
public:
  std::string_view id() const override { return "RUB010"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const InterpreterReach reach(ctx.facts);
    const rubscope::GradedScope scope(ctx.facts);
    // Stores into a caller's namespace change the caller's own variables or globals.
    for (const interp::NamespaceWrite &w : reach.namespaceWrites()) {
      const bool graded = scope.graded(w.function, w.lines);
      sink.report(w.lines, {{"source", w.how}, {"effect", w.effect}},
                  graded ? std::string{} : "not on a path the grader runs (the entry point's reach or import time)",
                  graded ? std::optional<Confidence>(Confidence::High) : Confidence::Low);
    }
    for (const interp::Origin &o : reach.origins()) {
      if (!o.used)
        continue; // nothing but logging or a count consumes what it found
      const bool graded = scope.graded(o.function, o.lines);
      if (!graded && o.harm.empty())
        continue; // a debugging helper the grader never runs
      const std::string source = "`" + o.how + "`" + (o.how.find("f_") != std::string::npos ? " of a calling frame" : "");
      if (!o.harm.empty() && graded && scope.graded(o.harmFunction, o.harmLines)) {
        sink.report(o.lines, {{"source", source}, {"effect", o.harm}}, {}, Confidence::High);
        continue;
      }
      const std::string note = !o.harm.empty()
                                   ? "the scan or the harm is off the path the grader runs"
                                   : "nothing shows the found objects changed or reaching the entry point's result";
      sink.report(o.lines, {{"source", source}, {"effect", o.harm.empty() ? "what it finds is consumed by code the grader runs" : o.harm}}, note,
                  Confidence::Low);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeRub010() { return std::make_unique<Rub010>(); }

} // namespace kbaudit::rules
