// Branch conditions and what they test (ConditionTag heuristics).

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

using T = ConditionTag;

TEST(PythonBranches, KindsLinesAndBodies) {
  auto f = analyze(src(R"PY(
def forward(self, x):
    if x.dim() == 2:
        y = 1
    elif x.dim() == 3:
        y = 2
    else:
        y = 3
    while y > 0:
        y -= 1
    z = x if x.numel() > 0 else None
    assert len(x) > 0, "empty"
    match x.ndim:
        case 1:
            pass
    return y
)PY"));
  ASSERT_EQ(f.branches.size(), 6u);
  const Branch *b = branchAt(f, 2);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->kind, "if");
  EXPECT_EQ(b->condition, "x.dim() == 2");
  EXPECT_EQ(b->lines, (LineRange{2, 2}));
  EXPECT_EQ(b->body, (LineRange{2, 7}));
  EXPECT_EQ(b->function, "forward");
  EXPECT_EQ(b->calls, (std::vector<std::string>{"x.dim"}));
  EXPECT_EQ(b->names, (std::vector<std::string>{"x"}));
  EXPECT_EQ(b->tags, (std::vector<ConditionTag>{T::Shape}));

  const Branch *elif = branchAt(f, 4);
  ASSERT_NE(elif, nullptr);
  EXPECT_EQ(elif->kind, "elif");
  EXPECT_EQ(elif->body, (LineRange{4, 7}));

  EXPECT_EQ(branchAt(f, 8)->kind, "while");
  EXPECT_EQ(branchAt(f, 8)->body, (LineRange{8, 9}));
  const Branch *cond = branchAt(f, 10);
  ASSERT_NE(cond, nullptr);
  EXPECT_EQ(cond->kind, "conditional");
  EXPECT_EQ(cond->condition, "x.numel() > 0");
  EXPECT_EQ(branchAt(f, 11)->kind, "assert");
  EXPECT_EQ(branchAt(f, 11)->condition, "len(x) > 0");
  EXPECT_TRUE(hasTag(*branchAt(f, 11), T::Shape));
  const Branch *m = branchAt(f, 12);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->kind, "match");
  EXPECT_EQ(m->condition, "x.ndim");
  EXPECT_EQ(m->body, (LineRange{12, 14}));
  EXPECT_EQ(m->tags, (std::vector<ConditionTag>{T::Shape}));
}

TEST(PythonBranches, ArmsOfIfChains) {
  auto f = analyze(src(R"PY(
def forward(self, x):
    if (x.dim() == 2 and
            x.numel() > 0):
        y = 1
        # between arms

    elif x.dim() == 3:
        y = 2
    else:
        y = 3
        z = 4
    if x is None: return x
    while y:
        y -= 1
    if y:
        pass
    else: y = 0
    return y
)PY"));
  const Branch *b = branchAt(f, 2);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->body, (LineRange{2, 11})); // unchanged: the whole statement
  ASSERT_EQ(b->arms.size(), 3u);
  EXPECT_EQ(b->arms[0].kind, "if");
  EXPECT_EQ(b->arms[0].test, (LineRange{2, 3}));
  EXPECT_EQ(b->arms[0].body, (LineRange{4, 4})); // the trailing comment is not part of it
  EXPECT_EQ(b->arms[0].lines, (LineRange{2, 4}));
  EXPECT_EQ(b->arms[1].kind, "elif");
  EXPECT_EQ(b->arms[1].test, (LineRange{7, 7}));
  EXPECT_EQ(b->arms[1].body, (LineRange{8, 8}));
  EXPECT_EQ(b->arms[1].lines, (LineRange{7, 8}));
  EXPECT_EQ(b->arms[2].kind, "else");
  EXPECT_EQ(b->arms[2].test, (LineRange{0, 0}));
  EXPECT_EQ(b->arms[2].body, (LineRange{10, 11}));
  EXPECT_EQ(b->arms[2].lines, (LineRange{9, 11}));

  const Branch *elif = branchAt(f, 7);
  ASSERT_NE(elif, nullptr);
  EXPECT_EQ(elif->body, (LineRange{7, 11}));
  ASSERT_EQ(elif->arms.size(), 2u);
  EXPECT_EQ(elif->arms[0].kind, "elif");
  EXPECT_EQ(elif->arms[1].kind, "else");

  const Branch *inl = branchAt(f, 12);
  ASSERT_NE(inl, nullptr);
  ASSERT_EQ(inl->arms.size(), 1u);
  EXPECT_EQ(inl->arms[0].body, (LineRange{12, 12}));

  EXPECT_TRUE(branchAt(f, 13)->arms.empty()); // while

  const Branch *oneLineElse = branchAt(f, 15);
  ASSERT_NE(oneLineElse, nullptr);
  ASSERT_EQ(oneLineElse->arms.size(), 2u);
  EXPECT_EQ(oneLineElse->arms[0].body, (LineRange{16, 16}));
  EXPECT_EQ(oneLineElse->arms[1].body, (LineRange{17, 17}));
  EXPECT_EQ(oneLineElse->arms[1].lines, (LineRange{17, 17}));
}

TEST(PythonBranches, DataDependentTags) {
  auto f = analyze(src(R"PY(
import torch, math
class ModelNew(torch.nn.Module):
    def forward(self, x, w):
        if x.shape[0] > 4096:
            pass
        if x.abs().max() > 1e3 or torch.isnan(x).any():
            pass
        if math.isinf(v):
            pass
        if x.dtype == torch.float16:
            pass
        if x.is_cuda and torch.cuda.get_device_capability()[0] >= 9:
            pass
        if max(a, b) > 16:
            pass
        return x
)PY"));
  EXPECT_EQ(branchAt(f, 4)->tags, (std::vector<ConditionTag>{T::Shape}));
  EXPECT_EQ(branchAt(f, 6)->tags, (std::vector<ConditionTag>{T::Magnitude}));
  EXPECT_EQ(branchAt(f, 6)->calls,
            (std::vector<std::string>{"x.abs().max", "x.abs", "torch.isnan(...).any", "torch.isnan"}));
  // Module paths (`torch` in torch.isnan) are not values the condition reads.
  EXPECT_EQ(branchAt(f, 6)->names, (std::vector<std::string>{"x"}));
  EXPECT_EQ(branchAt(f, 8)->tags, (std::vector<ConditionTag>{T::Magnitude}));
  EXPECT_EQ(branchAt(f, 10)->tags, (std::vector<ConditionTag>{T::Dtype}));
  EXPECT_EQ(branchAt(f, 12)->tags, (std::vector<ConditionTag>{T::Device}));
  // Builtin max over Python numbers is shape arithmetic, not a data test.
  EXPECT_TRUE(branchAt(f, 14)->tags.empty());
}

TEST(PythonBranches, IdentityPointerVersionAndCachedState) {
  auto f = analyze(src(R"PY(
class ModelNew:
    def forward(self, x):
        if x is self.last_x:
            return self.out
        if self.cache is None:
            pass
        if id(x) == self.key:
            pass
        if x.data_ptr() == self.ptr:
            pass
        if x._version != self.ver:
            pass
        if not self.training:
            pass
        return x
)PY"));
  EXPECT_EQ(branchAt(f, 3)->tags, (std::vector<ConditionTag>{T::Identity, T::Attribute}));
  EXPECT_EQ(branchAt(f, 3)->names, (std::vector<std::string>{"x", "self.last_x"}));
  // `is None` is not an identity cache check; reading self.cache is cached state.
  EXPECT_EQ(branchAt(f, 5)->tags, (std::vector<ConditionTag>{T::Attribute}));
  EXPECT_EQ(branchAt(f, 7)->tags, (std::vector<ConditionTag>{T::Identity, T::Attribute}));
  EXPECT_EQ(branchAt(f, 9)->tags, (std::vector<ConditionTag>{T::Pointer, T::Attribute}));
  EXPECT_EQ(branchAt(f, 11)->tags, (std::vector<ConditionTag>{T::Version, T::Attribute}));
  EXPECT_EQ(branchAt(f, 13)->tags, (std::vector<ConditionTag>{T::Attribute}));
}

TEST(PythonBranches, CallCounters) {
  auto f = analyze(src(R"PY(
_calls = 0
class ModelNew:
    def __init__(self):
        self.n = 0
        self.seen = 0
    def forward(self, x):
        global _calls
        _calls += 1
        self.n = self.n + 1
        if self.n > 3:
            pass
        if _calls % 2 == 0:
            pass
        if self.seen:
            pass
        return x
class Other:
    def forward(self, x):
        if self.n > 3:
            pass
)PY"));
  EXPECT_EQ(branchAt(f, 10)->tags, (std::vector<ConditionTag>{T::CallCounter, T::Attribute}));
  EXPECT_EQ(branchAt(f, 12)->tags, (std::vector<ConditionTag>{T::CallCounter}));
  EXPECT_EQ(branchAt(f, 14)->tags, (std::vector<ConditionTag>{T::Attribute}));
  // Another class's counter is not this class's counter.
  EXPECT_EQ(branchAt(f, 19)->tags, (std::vector<ConditionTag>{T::Attribute}));
}

TEST(PythonBranches, CallerFrameAndEnvironment) {
  auto f = analyze(src(R"PY(
import os, sys, inspect, traceback
from os import getenv
def forward(x):
    if "check" in inspect.stack()[1].filename:
        pass
    if sys._getframe(1).f_code.co_name == "benchmark":
        pass
    if any("bench" in a for a in sys.argv):
        pass
    if traceback.extract_stack()[-2].name == "run":
        pass
    if sys.modules["__main__"].__file__.endswith("check.py"):
        pass
    if os.environ.get("KB_FAST") == "1" or getenv("X"):
        pass
    if "BENCH" in os.environ:
        pass
if __name__ == "__main__":
    pass
)PY"));
  EXPECT_EQ(branchAt(f, 4)->tags, (std::vector<ConditionTag>{T::CallerFrame}));
  EXPECT_EQ(branchAt(f, 6)->tags, (std::vector<ConditionTag>{T::CallerFrame}));
  EXPECT_EQ(branchAt(f, 8)->tags, (std::vector<ConditionTag>{T::CallerFrame}));
  EXPECT_EQ(branchAt(f, 10)->tags, (std::vector<ConditionTag>{T::CallerFrame}));
  EXPECT_EQ(branchAt(f, 12)->tags, (std::vector<ConditionTag>{T::CallerFrame}));
  EXPECT_EQ(branchAt(f, 14)->tags, (std::vector<ConditionTag>{T::Environment}));
  EXPECT_EQ(branchAt(f, 14)->calls, (std::vector<std::string>{"os.environ.get", "os.getenv"}));
  EXPECT_EQ(branchAt(f, 16)->tags, (std::vector<ConditionTag>{T::Environment}));
  // The standard main guard is not caller inspection.
  const Branch *guard = branchAt(f, 18);
  ASSERT_NE(guard, nullptr);
  EXPECT_TRUE(guard->tags.empty());
  EXPECT_EQ(guard->function, "");
}

TEST(PythonBranches, ConditionsInNestedFunctionsAndLambdas) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        def pick(y):
            return y if y.numel() < self.limit else None
        key = lambda t: 0 if t.is_contiguous() else 1
        return pick(x)
)PY"));
  const Branch *inner = branchAt(f, 4);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->function, "M.forward.pick");
  // Closures inside a method still see its self.
  EXPECT_EQ(inner->tags, (std::vector<ConditionTag>{T::Shape, T::Attribute}));
  const Branch *lam = branchAt(f, 5);
  ASSERT_NE(lam, nullptr);
  EXPECT_EQ(lam->function, "M.forward");
  EXPECT_EQ(lam->tags, (std::vector<ConditionTag>{T::Shape}));
}

} // namespace
} // namespace kbaudit::py::testing
