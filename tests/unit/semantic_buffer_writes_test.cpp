// Where a function may write or surely writes a tensor: MEM002 counts any mention that could
// write an allocation; MEM003 only writes that change an input in place.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/buffer_writes.h"
#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

TEST(SemanticBufferWrites, MentionsThatMayWriteInAWindow) {
  auto f = analyze(src(R"PY(
def forward(x):
    out = torch.empty_like(x)
    n = x.numel()  # out is not mentioned here
    label = "out"
    out.fill_(0)
    k(out=out)
    alias = out
    return out
)PY"));
  const Function &fn = *f.findFunction("forward");
  std::vector<unsigned> lines;
  for (const LineRange &l : semantic::mentionsThatMayWrite(f, fn, "out", 2, 9))
    lines.push_back(l.begin);
  EXPECT_EQ(lines, (std::vector<unsigned>{5, 6, 7}));
  EXPECT_TRUE(semantic::mentionsThatMayWrite(f, fn, "out", 2, 5).empty());
}

TEST(SemanticBufferWrites, InPlaceWritesOfAnInput) {
  Facts facts;
  facts.python = analyze(src(R"PY(
import triton

@triton.jit
def _k(p):
    pass

def forward(x, y):
    x.requires_grad_(False)
    x.mul_(2)
    y[:4] = 0
    y[0] = 1
    _k[(1,)](y)
    return x
)PY"));
  const Function &fn = *facts.python.findFunction("forward");
  const std::vector<semantic::InPlaceWrite> xs = semantic::inPlaceWrites(facts, fn, "x");
  ASSERT_EQ(xs.size(), 1u); // requires_grad_ is bookkeeping
  EXPECT_EQ(xs[0].lines.begin, 9u);
  EXPECT_TRUE(xs[0].inPlace);
  const std::vector<semantic::InPlaceWrite> ys = semantic::inPlaceWrites(facts, fn, "y");
  ASSERT_EQ(ys.size(), 2u); // the launch and the slice assignment, not `y[0] = 1`
  EXPECT_FALSE(ys[0].inPlace);
  EXPECT_EQ(ys[0].lines.begin, 12u);
  EXPECT_TRUE(ys[1].inPlace);
  EXPECT_EQ(ys[1].lines.begin, 10u);
}

} // namespace
} // namespace kbaudit::py::testing
