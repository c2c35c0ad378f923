// The dtype a Python conversion converts to (kbaudit/semantic/float_cast.h): PREC001 asks it
// of the solution's and the reference's casts alike.

#include "kbaudit/semantic/float_cast.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

TEST(SemanticFloatCast, ConversionTarget) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
DT = torch.bfloat16

def f(x, w, n):
    a = x.half()
    b = x.to(torch.bfloat16)
    c = x.to("cuda", dtype=DT)
    d = x.type(torch.cuda.HalfTensor)
    e = x.to(x.device)
    g = x.float()
    h = torch.zeros(n, dtype=torch.float16)
    i = x.to(torch.int8)
    return a, b, c, d, e, g, h, i
)PY"));
  const auto targetOn = [&](unsigned line) {
    for (const py::Call &c : f.python.calls)
      if (c.lines.begin == line)
        return semantic::floatcast::conversionTarget(f.python, c);
    return std::string("<no call>");
  };
  EXPECT_EQ(targetOn(5), "fp16");
  EXPECT_EQ(targetOn(6), "bf16");
  EXPECT_EQ(targetOn(7), "bf16") << "a dtype keyword through its module binding";
  EXPECT_EQ(targetOn(8), "fp16") << "a legacy tensor type";
  EXPECT_EQ(targetOn(9), "") << "a device move";
  EXPECT_EQ(targetOn(10), "") << "only half and bfloat16 among the dtype methods";
  EXPECT_EQ(targetOn(11), "") << "a factory converts nothing";
  EXPECT_EQ(targetOn(12), "int8") << "any dtype, floating or not";
}

} // namespace
} // namespace kbaudit
