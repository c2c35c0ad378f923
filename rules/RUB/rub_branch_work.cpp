#include "rub_branch_work.h"

namespace kbaudit::rules::rub {

std::vector<DtypeUse> lowerIn(const ArmWork &arm, const ArmWork &other, const problems::ProblemContext *problem) {
  const unsigned contract = problem ? problems::dtypeBits(problem->contractDtype()) : 0;
  const std::set<std::string> otherSet = other.dtypeSet();
  unsigned otherMin = 0;
  for (const std::string &d : otherSet)
    if (unsigned bits = precisionBits(d); bits && (!otherMin || bits < otherMin))
      otherMin = bits;
  std::vector<DtypeUse> out;
  for (const DtypeUse &d : arm.dtypes) {
    const unsigned bits = precisionBits(d.dtype);
    if (!bits || otherSet.count(d.dtype) || (otherMin && bits >= otherMin))
      continue;
    if (contract ? bits < contract : bits <= 16)
      out.push_back(d);
  }
  return out;
}

} // namespace kbaudit::rules::rub
