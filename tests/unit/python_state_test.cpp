// Self-attribute reads/writes, identity and pointer checks, try/except handlers.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

std::vector<std::string> accesses(const PythonFacts &f, std::string_view function) {
  std::vector<std::string> out;
  for (const auto &s : f.selfAccesses)
    if (s.function == function)
      out.push_back((s.write ? "w:" : "r:") + s.attribute + "@" + std::to_string(s.lines.begin));
  return out;
}

TEST(PythonState, SelfReadsAndWritesPerMethod) {
  auto f = analyze(src(R"PY(
class ModelNew:
    def __init__(self, n):
        self.cache = {}
        self.n = n
    def forward(self, x):
        key = (x.shape, x.dtype)
        if key in self.cache:
            return self.cache[key]
        out = self.ext.run(x)
        self.cache[key] = out
        self.hits += 1
        self.cache.update({0: out})
        self.buf[0][1] = out
        self.stats.last = out
        self.layers[0].weight = x
        getattr(self, "scale")
        return out
    @staticmethod
    def helper(self):
        return self.x
)PY"));
  EXPECT_EQ(accesses(f, "ModelNew.__init__"), (std::vector<std::string>{"w:cache@3", "w:n@4"}));
  EXPECT_EQ(accesses(f, "ModelNew.forward"),
            (std::vector<std::string>{"r:cache@7", "r:cache@8", "r:ext@9", "w:cache@10", "r:hits@11",
                                      "w:hits@11", "r:cache@12", "w:cache@12", "w:buf@13", "w:stats@14",
                                      "w:layers@15", "r:scale@16"}));
  // A staticmethod's first parameter is not self.
  EXPECT_TRUE(accesses(f, "ModelNew.helper").empty());
}

TEST(PythonState, ClosuresInsideMethodsSeeSelf) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        def body():
            return self.w
        return body()
def free(self):
    return self.w
)PY"));
  EXPECT_EQ(accesses(f, "M.forward.body"), (std::vector<std::string>{"r:w@4"}));
  // A free function's `self` parameter is just a name.
  EXPECT_TRUE(accesses(f, "free").empty());
}

TEST(PythonState, IdentityChecks) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        if x is self._last and x is not None:
            return self._out
        if self._out is None or x is True:
            pass
        if id(x) == self._id:
            pass
        self._cache[id(x)] = x
        same = x.data_ptr() == self._ptr
        p = x.untyped_storage().data_ptr()
        if x._version != self._ver:
            pass
        return x
)PY"));
  std::vector<std::string> got;
  for (const auto &c : f.identityChecks)
    got.push_back(c.kind + "|" + c.text + "|" + std::to_string(c.lines.begin));
  EXPECT_EQ(got, (std::vector<std::string>{
                     "is|x is self._last|3",
                     "id|id(x) == self._id|7",
                     "id|id(x)|9",
                     "data_ptr|x.data_ptr() == self._ptr|10",
                     "data_ptr|x.untyped_storage().data_ptr()|11",
                     "version|x._version != self._ver|12",
                 }));
  for (const auto &c : f.identityChecks) {
    EXPECT_EQ(c.function, "M.forward");
  }
}

TEST(PythonState, TryHandlers) {
  auto f = analyze(src(R"PY(
import torch
import torch.nn.functional as F
from subprocess import CalledProcessError as CPE
def build():
    try:
        from torch.utils.cpp_extension import load_inline
        ext = load_inline(name="x", cpp_sources="")
    except (ImportError, CPE) as e:
        warnings.warn(str(e))
        return None
    except torch.cuda.OutOfMemoryError:
        raise
    except:
        def later():
            raise ValueError()
        ext = F.linear
    return ext
)PY"));
  ASSERT_EQ(f.tryHandlers.size(), 3u);
  const TryHandler &a = f.tryHandlers[0];
  EXPECT_EQ(a.exceptionTypes, (std::vector<std::string>{"ImportError", "subprocess.CalledProcessError"}));
  EXPECT_EQ(a.handlerCalls, (std::vector<std::string>{"warnings.warn", "str"}));
  EXPECT_FALSE(a.reraises);
  EXPECT_TRUE(a.returns);
  EXPECT_EQ(a.function, "build");
  EXPECT_EQ(a.tryLines, (LineRange{5, 7}));
  EXPECT_EQ(a.handlerLines, (LineRange{8, 10}));

  const TryHandler &b = f.tryHandlers[1];
  EXPECT_EQ(b.exceptionTypes, (std::vector<std::string>{"torch.cuda.OutOfMemoryError"}));
  EXPECT_TRUE(b.reraises);
  EXPECT_FALSE(b.returns);
  EXPECT_TRUE(b.handlerCalls.empty());

  const TryHandler &c = f.tryHandlers[2];
  EXPECT_TRUE(c.exceptionTypes.empty()); // bare except
  EXPECT_FALSE(c.reraises);              // the raise belongs to a nested def
  EXPECT_FALSE(c.returns);
  EXPECT_EQ(c.handlerLines, (LineRange{13, 16}));
}

TEST(PythonState, TryFinallyAndElseHaveNoHandlers) {
  auto f = analyze(src(R"PY(
try:
    import triton
    HAS_TRITON = True
except ImportError:
    HAS_TRITON = False
else:
    pass
finally:
    pass
)PY"));
  ASSERT_EQ(f.tryHandlers.size(), 1u);
  EXPECT_EQ(f.tryHandlers[0].exceptionTypes, (std::vector<std::string>{"ImportError"}));
  EXPECT_EQ(f.tryHandlers[0].function, "");
  EXPECT_EQ(f.tryHandlers[0].tryLines, (LineRange{1, 3}));
  EXPECT_EQ(assignmentsTo(f, "HAS_TRITON").size(), 2u);
}

} // namespace
} // namespace kbaudit::py::testing
