#pragma once

// RUB005's and RUB006's policy on the arms of a dispatch (semantic/arm_work.h says what each
// arm computes): when one side counts as lower precision than the other.

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/semantic/arm_work.h"

#include <vector>

namespace kbaudit::rules::rub {

using semantic::ArmWork;
using semantic::armsOf;
using semantic::DtypeUse;
using semantic::precisionBits;
using semantic::workIn;

/// Dtypes one arm uses that make it lower precision than another: below the problem's
/// contract when there is one, else at most 16 bits, and not used by `other`.
std::vector<DtypeUse> lowerIn(const ArmWork &arm, const ArmWork &other, const problems::ProblemContext *problem);

} // namespace kbaudit::rules::rub
