// Assignments: target kinds, unpacking, augmented/annotated/chained, walrus, with-as.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

using TK = Assignment::TargetKind;

TEST(PythonAssignments, TargetKinds) {
  auto f = analyze(src(R"PY(
import torch
x = 1
torch.backends.cudnn.benchmark = True
other.attr = 2
d["k"] = 3
class M:
    def __init__(self):
        self.cache = {}
        self.cache["a"] = 1
        other.field = self
)PY"));
  ASSERT_NE(assignmentTo(f, "x"), nullptr);
  EXPECT_EQ(assignmentTo(f, "x")->kind, TK::Name);
  EXPECT_EQ(assignmentTo(f, "x")->resolved, "x");
  EXPECT_EQ(assignmentTo(f, "torch.backends.cudnn.benchmark")->kind, TK::ModuleAttribute);
  EXPECT_EQ(assignmentTo(f, "other.attr")->kind, TK::Attribute);
  EXPECT_EQ(assignmentTo(f, "d[\"k\"]")->kind, TK::Subscript);
  EXPECT_EQ(assignmentTo(f, "d[\"k\"]")->resolved, "d[...]");
  const Assignment *cache = assignmentTo(f, "self.cache");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->kind, TK::SelfAttribute);
  EXPECT_EQ(cache->function, "M.__init__");
  EXPECT_EQ(cache->value.kind, ExprKind::Dict);
  EXPECT_EQ(assignmentTo(f, "self.cache[\"a\"]")->kind, TK::Subscript);
  EXPECT_EQ(assignmentTo(f, "other.field")->kind, TK::Attribute);
}

TEST(PythonAssignments, TupleUnpackingPairsTargetsWithValues) {
  auto f = analyze(src(R"PY(
a, b = 1, "two"
(c, d), e = (3, 4), 5
g, h = make()
first, *rest = items
[p, q] = [7, 8]
)PY"));
  EXPECT_EQ(assignmentTo(f, "a")->value.number, 1.0);
  ASSERT_TRUE(assignmentTo(f, "b")->value.string.has_value());
  EXPECT_EQ(assignmentTo(f, "b")->value.string->value, "two");
  EXPECT_EQ(assignmentTo(f, "c")->value.number, 3.0);
  EXPECT_EQ(assignmentTo(f, "d")->value.number, 4.0);
  EXPECT_EQ(assignmentTo(f, "e")->value.number, 5.0);
  // Not a literal tuple on the right: every target gets the whole value.
  EXPECT_EQ(assignmentTo(f, "g")->value.text, "make()");
  EXPECT_EQ(assignmentTo(f, "h")->value.text, "make()");
  EXPECT_EQ(assignmentTo(f, "first")->value.text, "items");
  EXPECT_EQ(assignmentTo(f, "rest")->value.text, "items");
  EXPECT_EQ(assignmentTo(f, "p")->value.number, 7.0);
  EXPECT_EQ(assignmentTo(f, "q")->value.number, 8.0);
  EXPECT_EQ(assignmentTo(f, "q")->lines, (LineRange{5, 5}));
}

TEST(PythonAssignments, ChainedAugmentedAnnotatedWalrus) {
  auto f = analyze(src(R"PY(
a = b = 5
n: int = 3
declared_only: int
total += 2
mask >>= 1
if (m := compute()) > 0:
    pass
)PY"));
  EXPECT_EQ(assignmentTo(f, "a")->value.number, 5.0);
  EXPECT_EQ(assignmentTo(f, "b")->value.number, 5.0);
  EXPECT_EQ(assignmentTo(f, "n")->op, "=");
  EXPECT_EQ(assignmentTo(f, "n")->value.number, 3.0);
  EXPECT_EQ(assignmentTo(f, "declared_only"), nullptr);
  EXPECT_EQ(assignmentTo(f, "total")->op, "+=");
  EXPECT_EQ(assignmentTo(f, "total")->value.number, 2.0);
  EXPECT_EQ(assignmentTo(f, "mask")->op, ">>=");
  const Assignment *m = assignmentTo(f, "m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->op, ":=");
  EXPECT_EQ(m->kind, TK::Name);
  EXPECT_EQ(m->value.resolved, "compute");
  EXPECT_EQ(m->lines, (LineRange{6, 6}));
}

TEST(PythonAssignments, WithAsBindsLikeAnAssignment) {
  auto f = analyze(src(R"PY(
def write(src):
    with open("k.cu", "w") as fh, lock:
        fh.write(src)
)PY"));
  const Assignment *a = assignmentTo(f, "fh");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->op, "with");
  EXPECT_EQ(a->kind, TK::Name);
  EXPECT_EQ(a->value.kind, ExprKind::Call);
  EXPECT_EQ(a->value.resolved, "open");
  EXPECT_EQ(a->function, "write");
  EXPECT_EQ(a->lines, (LineRange{2, 2}));
  EXPECT_NE(callTo(f, "fh.write"), nullptr);
}

TEST(PythonAssignments, MultiLineAssignmentLinesAndGlobalRebinding) {
  auto f = analyze(src(R"PY(
_EXT = None
def get():
    global _EXT
    if _EXT is None:
        _EXT = load(
            name="x",
        )
    return _EXT
)PY"));
  auto all = assignmentsTo(f, "_EXT");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->function, "");
  EXPECT_EQ(all[0]->value.kind, ExprKind::None);
  EXPECT_EQ(all[1]->function, "get");
  EXPECT_EQ(all[1]->lines, (LineRange{5, 7}));
  EXPECT_EQ(all[1]->value.kind, ExprKind::Call);
}

TEST(PythonAssignments, AttributeTargetsInsideMethodsOfOtherObjects) {
  auto f = analyze(src(R"PY(
import torch
class M:
    def forward(self, x):
        self.layers[0].weight = x
        torch.ops.mylib.flag = 1
        x.data = self.w
)PY"));
  EXPECT_EQ(assignmentTo(f, "self.layers[0].weight")->kind, TK::Attribute);
  EXPECT_EQ(assignmentTo(f, "torch.ops.mylib.flag")->kind, TK::ModuleAttribute);
  EXPECT_EQ(assignmentTo(f, "x.data")->kind, TK::Attribute);
  EXPECT_EQ(assignmentTo(f, "x.data")->value.resolved, "self.w");
}

} // namespace
} // namespace kbaudit::py::testing
