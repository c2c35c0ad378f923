// `return` and `raise` statements: value, enclosing def, lines.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

TEST(PythonReturns, ValuesFunctionsAndLines) {
  auto f = analyze(src(R"PY(
class ModelNew:
    def forward(self, x):
        if x is None:
            return
        def inner(y):
            return y + 1
        if x.dim() == 2: return x.half()
        return (x,
                inner(x))  # trailing
)PY"));
  auto fwd = returnsIn(f, "ModelNew.forward");
  ASSERT_EQ(fwd.size(), 3u);
  EXPECT_EQ(fwd[0]->value.kind, ExprKind::None);
  EXPECT_EQ(fwd[0]->value.text, "");
  EXPECT_EQ(fwd[0]->lines, (LineRange{4, 4}));
  EXPECT_EQ(fwd[1]->value.kind, ExprKind::Call);
  EXPECT_EQ(fwd[1]->value.text, "x.half()");
  EXPECT_EQ(fwd[1]->lines, (LineRange{7, 7}));
  EXPECT_EQ(fwd[2]->value.kind, ExprKind::Tuple);
  EXPECT_EQ(fwd[2]->lines, (LineRange{8, 9}));
  EXPECT_EQ(fwd[2]->value.elements.size(), 2u);

  auto inner = returnsIn(f, "ModelNew.forward.inner");
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0]->value.text, "y + 1");
  EXPECT_EQ(inner[0]->lines, (LineRange{6, 6}));
}

TEST(PythonReturns, ReturnedCallsAreStillCalls) {
  auto f = analyze(src(R"PY(
import torch
def run(x):
    return torch.relu(x)
)PY"));
  ASSERT_EQ(f.returns.size(), 1u);
  EXPECT_EQ(f.returns[0].value.resolved, "torch.relu");
  EXPECT_NE(callTo(f, "torch.relu"), nullptr);
}

TEST(PythonReturns, Raises) {
  auto f = analyze(src(R"PY(
def check(x):
    if x < 0:
        raise ValueError(
            "negative")
    try:
        pass
    except KeyError:
        raise
raise SystemExit
)PY"));
  ASSERT_EQ(f.raises.size(), 3u);
  EXPECT_EQ(f.raises[0].function, "check");
  EXPECT_EQ(f.raises[0].lines, (LineRange{3, 4}));
  EXPECT_EQ(f.raises[1].lines, (LineRange{8, 8}));
  EXPECT_EQ(f.raises[2].function, "");
  EXPECT_EQ(f.raises[2].lines, (LineRange{9, 9}));
  EXPECT_NE(callTo(f, "ValueError"), nullptr);
}

} // namespace
} // namespace kbaudit::py::testing
