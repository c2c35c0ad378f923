#pragma once

// Helpers shared by the triton_*_test.cpp files: fixtures are inline Python strings run
// through the Python front end, then the Triton analysis.

#include "kbaudit/python/frontend.h"
#include "kbaudit/triton/analyze.h"
#include "python_test_support.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::triton::testing {

using py::testing::src;

inline TritonFacts analyzeSource(std::string_view text) { return analyze(py::analyze(src(text))); }

inline const Kernel &kernelNamed(const TritonFacts &f, std::string_view qualname) {
  const Kernel *k = f.findKernel(qualname);
  if (!k) {
    ADD_FAILURE() << "no kernel " << qualname;
    static const Kernel none;
    return none;
  }
  return *k;
}

inline unsigned kernelIndex(const TritonFacts &f, std::string_view qualname) {
  for (unsigned i = 0; i < f.kernels.size(); ++i)
    if (f.kernels[i].qualname == qualname)
      return i;
  ADD_FAILURE() << "no kernel " << qualname;
  return ~0u;
}

inline std::vector<Constexpr> constexprStates(const Kernel &k) {
  std::vector<Constexpr> out;
  for (const auto &p : k.params)
    out.push_back(p.constexprState);
  return out;
}

inline std::vector<std::string> paramNames(const Kernel &k) {
  std::vector<std::string> out;
  for (const auto &p : k.params)
    out.push_back(p.name);
  return out;
}

inline std::vector<std::string> opNames(const TritonFacts &f, OpKind kind) {
  std::vector<std::string> out;
  for (const auto &o : f.ops)
    if (o.kind == kind)
      out.push_back(o.resolved);
  return out;
}

} // namespace kbaudit::triton::testing
