// RUB017 suite-gate: the run's suite's own static gate refuses (or warns on) what the file
// does. The checks and their tests come from the run's suite profile (CheckContext::suite); the
// tests are evaluated by meaning (kbaudit/rules/gate_tests.h). One finding per check and line.

#include "all_checks.h"

#include "kbaudit/rules/gate_tests.h"

#include <set>
#include <utility>

namespace kbaudit::rules {
namespace {

/// Enough sites to show the pattern; a file with fifty `try` statements needs no fifty findings.
constexpr std::size_t kMaxSitesPerCheck = 8;

std::string answeredBy(const problems::GateCheck &c) {
  std::string rules;
  for (const std::string &id : c.answers)
    if (id != "RUB017")
      rules += (rules.empty() ? "" : ", ") + id;
  return "the gate guards against " + c.harm + (rules.empty() ? "" : "; kbaudit's answer to that harm: " + rules) +
         " (" + c.source + ")";
}

class Rub017 final : public Check {
public:
  std::string_view id() const override { return "RUB017"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    if (!ctx.suite)
      return;
    for (const problems::GateCheck &c : ctx.suite->gate) {
      if (!c.test)
        continue;
      // A cast to fp16 downgrades only an fp32 contract (KernelBench's precision_downgrade
      // checks nothing else); under an fp16 or bf16 contract it is the contract.
      if (c.test->kind == "downcast" && ctx.problem && ctx.problem->contractDtype() != "fp32")
        continue;
      std::set<std::pair<unsigned, unsigned>> seen;
      for (const GateSite &s : gateSites(ctx.facts, *c.test)) {
        if (!s.lines.valid() || !seen.insert({s.lines.begin, s.lines.end}).second)
          continue;
        if (seen.size() > kMaxSitesPerCheck)
          break;
        const bool reject = c.action == problems::GateAction::Reject;
        sink.report(s.lines,
                    {{"suite", ctx.suite->name},
                     {"verb", reject ? "rejects this" : "warns on this"},
                     {"check", c.check},
                     {"what", s.what}},
                    answeredBy(c), reject ? std::nullopt : std::optional<Confidence>(Confidence::Low));
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> makeRub017() { return std::make_unique<Rub017>(); }

} // namespace kbaudit::rules
