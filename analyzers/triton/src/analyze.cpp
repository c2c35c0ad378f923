#include "kbaudit/triton/analyze.h"

#include "passes.h"

namespace kbaudit::triton {

TritonFacts analyze(const py::PythonFacts &python) {
  TritonFacts out;
  detail::Index index(python);
  detail::Analysis a{index, out, {}};
  detail::findKernels(a);
  detail::findLaunches(a);
  detail::linkHelpers(a);
  detail::findCasts(a);
  detail::findOps(a);
  detail::findDots(a); // needs launches, for the host side of operand dtypes
  detail::classifyWork(a);
  return out;
}

} // namespace kbaudit::triton
