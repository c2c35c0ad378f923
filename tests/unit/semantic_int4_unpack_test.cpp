// The semantic layer's test for int4 unpacking (kbaudit/semantic/int4_unpack.h): which text
// splits bytes into nibbles, and whether an authored kernel's lines do (PREC004).

#include "kbaudit/semantic/int4_unpack.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace kbaudit;
using namespace kbaudit::semantic;

TEST(SemanticInt4Unpack, ShiftsMasksAndBitFieldPtx) {
  for (const char *text : {"w >> 4", "(w>>4) & 0xF", "w & 0xf", "w&0xF", "w & 15", "torch.bitwise_and(w, m)",
                           "torch.bitwise_right_shift(w, 4)", "asm(\"lop3.b32 %0, ...\")", "prmt.b32"})
    EXPECT_TRUE(mentionsUnpack(text)) << text;
}

TEST(SemanticInt4Unpack, OtherBitOperationsAreNot) {
  for (const char *text : {"w >> 8", "w & 255", "w << 4", "torch.bitwise_or(a, b)", "w & mask", "", "x * 4"})
    EXPECT_FALSE(mentionsUnpack(text)) << text;
}

TEST(SemanticInt4Unpack, SubstringsCountInsideLongerTokens) {
  // A plain substring test: `>> 48` and `& 0xFF` contain `>> 4` and `& 0xF`.
  EXPECT_TRUE(mentionsUnpack("x >> 48"));
  EXPECT_TRUE(mentionsUnpack("x & 0xFF"));
}

Facts solution(const std::string &text) {
  Facts f;
  f.source = SourceFile::fromBytes(text);
  return f;
}

kernels::Kernel kernelOn(unsigned begin, unsigned end) {
  kernels::Kernel k;
  k.name = "dequant";
  k.lines = {begin, end};
  return k;
}

const std::string kFile = "import triton\n"           // 1
                          "@triton.jit\n"             // 2
                          "def dequant(w_ptr):\n"     // 3
                          "    lo = w & 0xF\n"        // 4
                          "    return lo\n"           // 5
                          "def host(w):\n"            // 6
                          "    return w >> 8\n";      // 7

TEST(SemanticInt4Unpack, KernelLinesThatUnpack) {
  const Facts f = solution(kFile);
  EXPECT_TRUE(kernelMentionsUnpack(f, kernelOn(2, 5)));
  EXPECT_TRUE(kernelMentionsUnpack(f, kernelOn(4, 4)));
  EXPECT_TRUE(kernelMentionsUnpack(f, kernelOn(4, 40))); // clipped to the file
}

TEST(SemanticInt4Unpack, KernelLinesThatDoNot) {
  const Facts f = solution(kFile);
  EXPECT_FALSE(kernelMentionsUnpack(f, kernelOn(5, 7)));   // the mask is on line 4
  EXPECT_FALSE(kernelMentionsUnpack(f, kernelOn(0, 0)));   // no lines
  EXPECT_FALSE(kernelMentionsUnpack(f, kernelOn(5, 4)));   // reversed
  EXPECT_FALSE(kernelMentionsUnpack(f, kernelOn(20, 30))); // past the end
  EXPECT_FALSE(kernelMentionsUnpack(Facts{}, kernelOn(1, 5)));
}

} // namespace
