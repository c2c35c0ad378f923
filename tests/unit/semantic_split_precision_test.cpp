// Split-precision emulation (kbaudit/semantic/split_precision.h): a kernel that rebuilds a
// wide product from the narrow value and its rounding residual.

#include "kbaudit/semantic/split_precision.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

cxx::NumericUse conversion(int source, unsigned line, cxx::NumericType t, cxx::ConversionDirection d) {
  cxx::NumericUse u;
  u.type = t;
  u.kind = cxx::NumericUseKind::Conversion;
  u.direction = d;
  u.inDevice = true;
  u.source = source;
  u.lines = {line, line};
  return u;
}

TEST(SemanticSplitPrecision, CxxSourcesConvertingBothWaysOnALine) {
  cxx::CxxFacts cxx;
  using cxx::ConversionDirection;
  using cxx::NumericType;
  // Source 0: `lo = __float2half(x - __half2float(hi))` (half and half2 are one family).
  cxx.numericTypes.push_back(conversion(0, 10, NumericType::Half2, ConversionDirection::Narrowing));
  cxx.numericTypes.push_back(conversion(0, 10, NumericType::Half, ConversionDirection::Widening));
  // Source 1: narrows on one line and widens on another; source 2: two families on one line.
  cxx.numericTypes.push_back(conversion(1, 5, NumericType::Half, ConversionDirection::Narrowing));
  cxx.numericTypes.push_back(conversion(1, 6, NumericType::Half, ConversionDirection::Widening));
  cxx.numericTypes.push_back(conversion(2, 7, NumericType::Half, ConversionDirection::Narrowing));
  cxx.numericTypes.push_back(conversion(2, 7, NumericType::BFloat16, ConversionDirection::Widening));
  cxx::NumericUse host = conversion(3, 4, NumericType::Half, ConversionDirection::Narrowing);
  host.inDevice = false;
  cxx.numericTypes.push_back(host);
  cxx.numericTypes.push_back(conversion(3, 4, NumericType::Half, ConversionDirection::Widening));
  EXPECT_EQ(semantic::splitPrecisionSources(cxx), (std::set<int>{0}));
}

TEST(SemanticSplitPrecision, TritonResidual) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import triton
import triton.language as tl


@triton.jit
def split_kernel(x_ptr, y_ptr):
    x = tl.load(x_ptr)
    hi = x.to(tl.bfloat16)
    hi32 = hi.to(tl.float32)
    lo = (x - hi32).to(tl.bfloat16)
    tl.store(y_ptr, lo)


@triton.jit
def inline_kernel(x_ptr, y_ptr):
    x = tl.load(x_ptr)
    lo = (x - x.to(tl.bfloat16).to(tl.float32)).to(tl.bfloat16)
    tl.store(y_ptr, lo)


@triton.jit
def plain_kernel(x_ptr, y_ptr):
    x = tl.load(x_ptr)
    y = (x - 1.0).to(tl.bfloat16)
    tl.store(y_ptr, y)
)PY"));
  const auto narrow = [](std::string_view d) { return d == "bf16" || d == "fp16"; };
  const auto kernelNamed = [&](std::string_view name) {
    for (unsigned i = 0; i < f.triton.kernels.size(); ++i)
      if (f.triton.kernels[i].name == name)
        return i;
    ADD_FAILURE() << "no kernel " << name;
    return 0u;
  };
  const std::vector<bool> split = semantic::tritonSplitPrecisionByKernel(f, narrow);
  ASSERT_EQ(split.size(), f.triton.kernels.size());
  EXPECT_TRUE(split[kernelNamed("split_kernel")]) << "through a widened name";
  EXPECT_TRUE(split[kernelNamed("inline_kernel")]) << "a cast in the difference";
  EXPECT_FALSE(split[kernelNamed("plain_kernel")]) << "a difference with a constant is no residual";
}

} // namespace
} // namespace kbaudit
