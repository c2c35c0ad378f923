// Functions, methods, classes, decorators, qualnames and line ranges.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

TEST(PythonDefinitions, FunctionsMethodsAndDecorators) {
  auto f = analyze(src(R"PY(
import torch
import torch.nn as nn
import triton

@triton.autotune(configs=[], key=["n"])
@triton.jit
def kernel(x_ptr, n, BLOCK: "tl.constexpr" = 64):
    pass

class ModelNew(nn.Module):
    """Docstring."""
    def __init__(self, a, b=2, *args, c: int = 3, d: float, **kwargs):
        super().__init__()

    @torch.no_grad()
    def forward(self, x, /, y, *, z):
        return x

    @staticmethod
    def helper(v):
        return v
)PY"));
  ASSERT_EQ(f.functions.size(), 4u);

  const Function *k = f.findFunction("kernel");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->name, "kernel");
  EXPECT_EQ(k->className, "");
  EXPECT_EQ(k->params, (std::vector<std::string>{"x_ptr", "n", "BLOCK"}));
  EXPECT_EQ(k->lines, (LineRange{5, 8})); // decorators included
  ASSERT_EQ(k->decorators.size(), 2u);
  EXPECT_EQ(k->decorators[0].text, "triton.autotune(configs=[], key=[\"n\"])");
  EXPECT_EQ(k->decorators[0].resolved, "triton.autotune");
  EXPECT_EQ(k->decorators[0].lines, (LineRange{5, 5}));
  EXPECT_EQ(k->decorators[1].text, "triton.jit");
  EXPECT_EQ(k->decorators[1].resolved, "triton.jit");

  const Function *init = f.findFunction("ModelNew.__init__");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->className, "ModelNew");
  EXPECT_EQ(init->params, (std::vector<std::string>{"self", "a", "b", "*args", "c", "d", "**kwargs"}));
  EXPECT_EQ(init->lines, (LineRange{12, 13}));

  const Function *fwd = f.findFunction("ModelNew.forward");
  ASSERT_NE(fwd, nullptr);
  EXPECT_EQ(fwd->params, (std::vector<std::string>{"self", "x", "y", "z"}));
  ASSERT_EQ(fwd->decorators.size(), 1u);
  EXPECT_EQ(fwd->decorators[0].resolved, "torch.no_grad");
  EXPECT_EQ(fwd->decorators[0].text, "torch.no_grad()");
  EXPECT_EQ(fwd->lines, (LineRange{15, 17}));

  const Function *helper = f.findFunction("ModelNew.helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_EQ(helper->decorators[0].resolved, "staticmethod");

  const Class *c = f.findClass("ModelNew");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->bases, (std::vector<std::string>{"torch.nn.Module"}));
  EXPECT_EQ(c->methods, (std::vector<std::string>{"__init__", "forward", "helper"}));
  EXPECT_EQ(c->lines, (LineRange{10, 21}));
  EXPECT_EQ(f.findClass("Missing"), nullptr);
  EXPECT_EQ(f.findFunction("forward"), nullptr);
}

TEST(PythonDefinitions, ClassBasesAndDecorators) {
  auto f = analyze(src(R"PY(
from torch.nn import Module
from dataclasses import dataclass
import abc

@dataclass(frozen=True)
class Config:
    n: int = 3

class Model(Module, abc.ABC, metaclass=abc.ABCMeta):
    pass

class ModelNew(Model):
    def forward(self, x):
        return x
)PY"));
  const Class *cfg = f.findClass("Config");
  ASSERT_NE(cfg, nullptr);
  ASSERT_EQ(cfg->decorators.size(), 1u);
  EXPECT_EQ(cfg->decorators[0].resolved, "dataclasses.dataclass");
  EXPECT_EQ(cfg->lines, (LineRange{5, 7}));
  EXPECT_TRUE(cfg->methods.empty());
  EXPECT_EQ(f.findClass("Model")->bases, (std::vector<std::string>{"torch.nn.Module", "abc.ABC"}));
  EXPECT_EQ(f.findClass("ModelNew")->bases, (std::vector<std::string>{"Model"}));
  // Annotated class attributes are not assignments without a value... but `n: int = 3` is.
  const Assignment *n = assignmentTo(f, "n");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->function, "");
}

TEST(PythonDefinitions, NestedDefinitionsHaveQualifiedNames) {
  auto f = analyze(src(R"PY(
def outer(a):
    def inner(b):
        return b
    class Local:
        def method(self):
            return 1
    return inner

class A:
    class B:
        def m(self):
            pass
)PY"));
  EXPECT_NE(f.findFunction("outer"), nullptr);
  const Function *inner = f.findFunction("outer.inner");
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->className, "");
  const Function *method = f.findFunction("outer.Local.method");
  ASSERT_NE(method, nullptr);
  EXPECT_EQ(method->className, "Local");
  const Function *m = f.findFunction("A.B.m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->className, "B");
  EXPECT_NE(f.findClass("Local"), nullptr);
  EXPECT_NE(f.findClass("B"), nullptr);
}

TEST(PythonDefinitions, FactsInsideDefsCarryTheQualname) {
  auto f = analyze(src(R"PY(
import torch
class ModelNew(torch.nn.Module):
    scale = torch.tensor(2.0)
    def forward(self, x):
        def helper(y):
            return torch.relu(y)
        return helper(x) * self.scale
torch.manual_seed(0)
)PY"));
  EXPECT_EQ(callTo(f, "torch.tensor")->function, ""); // class body: no enclosing def
  EXPECT_EQ(callTo(f, "torch.relu")->function, "ModelNew.forward.helper");
  EXPECT_EQ(callTo(f, "helper")->function, "ModelNew.forward");
  EXPECT_EQ(callTo(f, "torch.manual_seed")->function, "");
}

TEST(PythonDefinitions, AsyncAndLambdaBodies) {
  auto f = analyze(src(R"PY(
import torch
async def run(x):
    await torch.cuda.synchronize()
fn = lambda t, s=torch.ones(1): torch.sigmoid(t)
)PY"));
  const Function *run = f.findFunction("run");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->params, (std::vector<std::string>{"x"}));
  EXPECT_EQ(callTo(f, "torch.cuda.synchronize")->function, "run");
  EXPECT_EQ(callTo(f, "torch.sigmoid")->function, "");
  EXPECT_NE(callTo(f, "torch.ones"), nullptr);
}

} // namespace
} // namespace kbaudit::py::testing
