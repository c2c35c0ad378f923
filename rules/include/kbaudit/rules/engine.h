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
  /// The first entry of `select` or `ignore` that is neither a rule id (WRAP001), a category
  /// (WRAP) nor ALL, or "" when every entry names something: a gate whose `--select NOPE999`
  /// or `select: wrap001` selects nothing must not pass in silence.
  std::string unknownEntry() const;
};

/// Runs the selected checks over one solution's facts.
RuleResults runRules(const CheckContext &ctx, const Selection &selection = {});

/// Fills `{name}` placeholders; unknown placeholders are left as written.
std::string renderMessage(std::string_view tmpl, const MessageVars &vars);

} // namespace kbaudit::rules
