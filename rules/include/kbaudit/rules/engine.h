#pragma once

#include "kbaudit/rules/check.h"
#include "kbaudit/rules/finding.h"

#include <string>
#include <vector>

namespace kbaudit::rules {

/// Which rules run, ruff-style: ids or category prefixes ("WRAP", "PREC002").
/// An empty `select` means every rule.
struct Selection {
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  bool enabled(std::string_view id) const;
};

/// Runs the selected checks over one solution's facts.
RuleResults runRules(const CheckContext &ctx, const Selection &selection = {});

/// Fills `{name}` placeholders; unknown placeholders are left as written.
std::string renderMessage(std::string_view tmpl, const MessageVars &vars);

} // namespace kbaudit::rules
