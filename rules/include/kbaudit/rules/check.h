#pragma once

// The interface between the rule engine and one check. A check reads facts and the
// problem context and reports findings; it never formats messages itself (the template
// is in the rule's YAML) and never includes parser headers.

#include "kbaudit/facts.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/rule_meta.h"
#include "kbaudit/source/line_range.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {
class ForwardReach;
struct HarnessView;
} // namespace kbaudit::semantic

namespace kbaudit::rules {

struct CheckContext {
  const Facts &facts;
  /// nullptr when the run's problem is unknown.
  const problems::ProblemContext *problem = nullptr;
  /// The suite profile the run is judged by (its own gate is RUB017's), nullptr when none.
  const problems::SuiteProfile *suite = nullptr;
  /// What forward reaches, built by the first check that asks (forwardReach below) and read by
  /// the others: four checks each building it were 3% of a cold audit.
  mutable std::shared_ptr<const semantic::ForwardReach> reach = nullptr;
};

/// The run's forward reach (semantic::ForwardReach over the solution and the reference's
/// model class): built once per CheckContext.
const semantic::ForwardReach &forwardReach(const CheckContext &ctx);

/// How the run's harness calls the graded entry (semantic/harness_conditions.h): the suite
/// profile's and problem's harness mode, else KernelBench's habits (inputs that do not require
/// grad, no_grad, training mode).
semantic::HarnessView harnessView(const CheckContext &ctx);

using MessageVars = std::map<std::string, std::string>;

class FindingSink {
public:
  virtual ~FindingSink() = default;
  /// Reports a finding on `lines` of solution.py. `vars` fill the message template;
  /// `evidence` is a short factual note; `confidence` overrides the rule's default.
  virtual void report(LineRange lines, MessageVars vars = {}, std::string evidence = {},
                      std::optional<Confidence> confidence = std::nullopt) = 0;
  /// The check could not run (e.g. it needs a problem and there is none).
  virtual void skipped(std::string reason) = 0;
};

class Check {
public:
  virtual ~Check() = default;
  virtual std::string_view id() const = 0;
  virtual void run(const CheckContext &ctx, FindingSink &sink) const = 0;
};

/// One instance of every implemented check (rules/src/registry.cpp).
std::vector<std::unique_ptr<Check>> makeAllChecks();

} // namespace kbaudit::rules
