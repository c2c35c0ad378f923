// Return flow and tensor subclasses the harness receives (kbaudit/semantic/return_flow.h,
// kbaudit/semantic/tensor_subclass.h): TIME002 and RUB014 both judge returned subclasses.

#include "kbaudit/semantic/return_flow.h"
#include "kbaudit/semantic/tensor_subclass.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kbaudit {
namespace {

const py::Call *callOn(const Facts &f, unsigned line, std::string_view method) {
  for (const py::Call &c : f.python.calls)
    if (c.lines.begin == line && c.method == method)
      return &c;
  return nullptr;
}

TEST(SemanticReturnFlow, ThroughNamesTuplesAndHelpers) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
def make(x):
    return x.clone()
def wrap(x):
    y = make(x)
    z = y
    return z, 1
def shadowed(x):
    y = make(x)
    y = y.contiguous()
    return y
class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = wrap(x)
        return out
    def other(self, x):
        return make(x)
)PY"));
  const std::vector<std::string> entries{"ModelNew.forward"};
  const py::Call *inWrap = callOn(f, 5, "make");
  const py::Call *inShadowed = callOn(f, 9, "make");
  const py::Call *inOther = callOn(f, 17, "make");
  ASSERT_TRUE(inWrap && inShadowed && inOther);
  EXPECT_TRUE(semantic::returnedByItsFunction(f.python, *inWrap)) << "through a copy, as a tuple item";
  EXPECT_TRUE(semantic::reachesEntryReturn(f.python, *inWrap, entries)) << "wrap's result is forward's";
  EXPECT_FALSE(semantic::returnedByItsFunction(f.python, *inShadowed)) << "rebound before the return";
  EXPECT_TRUE(semantic::returnedByItsFunction(f.python, *inOther));
  EXPECT_FALSE(semantic::reachesEntryReturn(f.python, *inOther, entries)) << "`other` is not an entry point";
}

TEST(SemanticTensorSubclass, EscapesAndComparisonHooks) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
class Lazy(torch.Tensor):
    @classmethod
    def make(cls, x):
        return torch.Tensor._make_wrapper_subclass(cls, x.shape)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.allclose:
            return True
        return super().__torch_function__(func, types, args, kwargs or {})
class Eq(Lazy):
    def __eq__(self, other):
        return True
class Plain(torch.Tensor):
    pass
class Param(torch.nn.Parameter):
    pass
def kernel(output, x):
    output.__class__ = Eq
    tmp = x.as_subclass(Plain)
    return Lazy.make(x)
)PY"));
  const py::Class *lazy = f.python.findClass("Lazy");
  const py::Class *eq = f.python.findClass("Eq");
  const py::Class *plain = f.python.findClass("Plain");
  const py::Class *param = f.python.findClass("Param");
  ASSERT_TRUE(lazy && eq && plain && param);
  EXPECT_TRUE(semantic::isTensorSubclass(f.python, *eq)) << "through a subclass of the file";
  EXPECT_TRUE(semantic::isTensorSubclass(f.python, *param));
  EXPECT_TRUE(semantic::interceptsTorchOps(*lazy));
  EXPECT_FALSE(semantic::interceptsTorchOps(*plain));
  const auto escapes = semantic::escapingSubclassInstances(f.python, {"kernel"}, [](const std::string &) { return true; });
  auto escaped = [&](const py::Class *c, bool rebinds) {
    return std::any_of(escapes.begin(), escapes.end(),
                       [&](const semantic::SubclassEscape &e) { return e.cls == c && e.rebindsArgument == rebinds; });
  };
  EXPECT_TRUE(escaped(lazy, false)) << "a factory class method's instance is returned";
  EXPECT_TRUE(escaped(eq, true)) << "the output argument's class is rebound";
  EXPECT_FALSE(escaped(plain, false)) << "made but not returned";
  EXPECT_EQ(semantic::comparisonHooks(f.python, *lazy), (std::vector<std::string>{"torch.allclose"}));
  EXPECT_EQ(semantic::comparisonHooks(f.python, *eq), (std::vector<std::string>{"__eq__"}));
  EXPECT_TRUE(semantic::comparisonHooks(f.python, *plain).empty());
}

} // namespace
} // namespace kbaudit
