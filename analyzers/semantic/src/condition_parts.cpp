#include "kbaudit/semantic/condition_parts.h"

namespace kbaudit::semantic {

namespace {

/// Whether `op` is one of the kept operators, and whether it negates on its own.
bool kept(const std::string &op, bool &negates) {
  negates = op == "is not" || op == "not in" || op == "!=";
  return negates || op == "is" || op == "in" || op == "==";
}

} // namespace

std::vector<ConditionComparison> conditionComparisons(const py::Branch &b) {
  std::vector<ConditionComparison> out;
  for (const py::Comparison &c : b.comparisons) {
    bool negates = false;
    if (kept(c.op, negates))
      out.push_back(ConditionComparison{c.left, c.right, c.op, c.underNot != negates});
  }
  return out;
}

} // namespace kbaudit::semantic
