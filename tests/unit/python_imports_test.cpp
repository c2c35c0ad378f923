// Imports, alias resolution and name references.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

TEST(PythonImports, AliasedModuleResolvesAttributeCalls) {
  auto f = analyze(src(R"PY(
import torch.nn.functional as F

def forward(x, w):
    return F.linear(x, w)
)PY"));
  const Import *imp = importOf(f, "F");
  ASSERT_NE(imp, nullptr);
  EXPECT_EQ(imp->target, "torch.nn.functional");
  EXPECT_FALSE(imp->fromImport);
  EXPECT_EQ(imp->function, "");
  EXPECT_EQ(imp->lines, (LineRange{1, 1}));

  const Call *c = callTo(f, "torch.nn.functional.linear");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->callee, "F.linear");
  EXPECT_EQ(c->method, "linear");
  EXPECT_EQ(c->receiver, "F");
  EXPECT_EQ(c->function, "forward");
  EXPECT_EQ(c->lines, (LineRange{4, 4}));
}

TEST(PythonImports, PlainImportResolvesModuleAttributeAssignment) {
  auto f = analyze(src(R"PY(
import torch
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = False
)PY"));
  const Assignment *a = assignmentTo(f, "torch.backends.cuda.matmul.allow_tf32");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind, Assignment::TargetKind::ModuleAttribute);
  EXPECT_EQ(a->resolved, "torch.backends.cuda.matmul.allow_tf32");
  EXPECT_EQ(a->op, "=");
  EXPECT_EQ(a->value.kind, ExprKind::Bool);
  EXPECT_EQ(a->value.text, "True");
  EXPECT_EQ(a->lines, (LineRange{2, 2}));
  const Assignment *b = assignmentTo(f, "torch.backends.cudnn.allow_tf32");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->kind, Assignment::TargetKind::ModuleAttribute);
}

TEST(PythonImports, DottedImportBindsTheTopLevelPackage) {
  auto f = analyze(src(R"PY(
import torch.nn.functional
import os.path
y = torch.nn.functional.relu(x)
torch.cuda.synchronize()
p = os.path.join("a", "b")
)PY"));
  const Import *imp = importOf(f, "torch");
  ASSERT_NE(imp, nullptr);
  EXPECT_EQ(imp->target, "torch.nn.functional");
  EXPECT_NE(callTo(f, "torch.nn.functional.relu"), nullptr);
  // `torch` is bound (to the package) even though only a submodule was named.
  EXPECT_NE(callTo(f, "torch.cuda.synchronize"), nullptr);
  EXPECT_NE(callTo(f, "os.path.join"), nullptr);
  EXPECT_EQ(f.resolve("torch.cuda.synchronize"), "torch.cuda.synchronize");
  EXPECT_EQ(f.resolve("os.getcwd"), "os.getcwd");
}

TEST(PythonImports, FromImportWithAlias) {
  auto f = analyze(src(R"PY(
from torch.utils.cpp_extension import load_inline as li, load
ext = li(name="e", cpp_sources="", functions=["f"])
mod = load(name="m", sources=["k.cu"])
)PY"));
  const Import *li = importOf(f, "li");
  ASSERT_NE(li, nullptr);
  EXPECT_EQ(li->target, "torch.utils.cpp_extension.load_inline");
  EXPECT_TRUE(li->fromImport);
  const Import *load = importOf(f, "load");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->target, "torch.utils.cpp_extension.load");

  const Call *c = callTo(f, "torch.utils.cpp_extension.load_inline");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->callee, "li");
  EXPECT_EQ(c->method, "li");
  EXPECT_EQ(c->receiver, "");
  EXPECT_NE(callTo(f, "torch.utils.cpp_extension.load"), nullptr);
}

TEST(PythonImports, TritonLanguageAlias) {
  auto f = analyze(src(R"PY(
import triton
import triton.language as tl

@triton.jit
def k(a_ptr, BLOCK: tl.constexpr):
    acc = tl.dot(a, b, allow_tf32=False)
    acc = acc.to(tl.float16)
)PY"));
  EXPECT_NE(callTo(f, "triton.language.dot"), nullptr);
  const Call *to = callTo(f, "acc.to");
  ASSERT_NE(to, nullptr);
  ASSERT_EQ(to->args.size(), 1u);
  EXPECT_EQ(to->args[0].value.kind, ExprKind::Attribute);
  EXPECT_EQ(to->args[0].value.resolved, "triton.language.float16");
  ASSERT_EQ(f.functions.size(), 1u);
  ASSERT_EQ(f.functions[0].decorators.size(), 1u);
  EXPECT_EQ(f.functions[0].decorators[0].resolved, "triton.jit");
}

TEST(PythonImports, RelativeImports) {
  auto f = analyze(src(R"PY(
from . import utils
from .kernels import gemm as g
from ..pkg import mod
from .. import top
utils.run()
g(x)
)PY"));
  ASSERT_NE(importOf(f, "utils"), nullptr);
  EXPECT_EQ(importOf(f, "utils")->target, ".utils");
  EXPECT_EQ(importOf(f, "g")->target, ".kernels.gemm");
  EXPECT_EQ(importOf(f, "mod")->target, "..pkg.mod");
  EXPECT_EQ(importOf(f, "top")->target, "..top");
  EXPECT_NE(callTo(f, ".utils.run"), nullptr);
  EXPECT_NE(callTo(f, ".kernels.gemm"), nullptr);
}

TEST(PythonImports, ImportsInsideFunctionsAreLocal) {
  auto f = analyze(src(R"PY(
def build():
    from torch.utils.cpp_extension import load_inline
    import numpy as np
    np.zeros(1)
    return load_inline(name="x", cpp_sources="")

def other():
    return load_inline(name="y")
)PY"));
  const Import *imp = importOf(f, "load_inline");
  ASSERT_NE(imp, nullptr);
  EXPECT_EQ(imp->function, "build");
  EXPECT_EQ(imp->lines, (LineRange{2, 2}));
  const Call *inBuild = callTo(f, "torch.utils.cpp_extension.load_inline");
  ASSERT_NE(inBuild, nullptr);
  EXPECT_EQ(inBuild->function, "build");
  EXPECT_NE(callTo(f, "numpy.zeros"), nullptr);
  // `other` does not see build's local import.
  const Call *inOther = callTo(f, "load_inline");
  ASSERT_NE(inOther, nullptr);
  EXPECT_EQ(inOther->function, "other");
  // Function-level imports are not module aliases.
  EXPECT_EQ(f.resolve("load_inline"), "load_inline");
}

TEST(PythonImports, ModuleImportsAreVisibleInFunctionsDefinedBeforeThem) {
  auto f = analyze(src(R"PY(
def make():
    return np.zeros(3)

import numpy as np
)PY"));
  const Call *c = callTo(f, "numpy.zeros");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->function, "make");
}

TEST(PythonImports, NestedFunctionsSeeEnclosingImports) {
  auto f = analyze(src(R"PY(
def outer():
    import torch.nn.functional as F
    def inner(x):
        return F.gelu(x)
    return inner
)PY"));
  const Call *c = callTo(f, "torch.nn.functional.gelu");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->function, "outer.inner");
}

TEST(PythonImports, AliasesMadeByAssignmentAndImportlib) {
  auto f = analyze(src(R"PY(
import torch
import importlib
cpp = torch.utils.cpp_extension
ext = cpp.load_inline(name="a", cpp_sources="")
be = importlib.import_module("torch.backends.cuda")
be.matmul.allow_tf32 = True
o = __import__("os")
o.environ["X"] = "1"
)PY"));
  EXPECT_NE(callTo(f, "torch.utils.cpp_extension.load_inline"), nullptr);
  const Assignment *a = assignmentTo(f, "be.matmul.allow_tf32");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->resolved, "torch.backends.cuda.matmul.allow_tf32");
  EXPECT_EQ(a->kind, Assignment::TargetKind::ModuleAttribute);
  const Assignment *e = assignmentTo(f, "o.environ[\"X\"]");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->kind, Assignment::TargetKind::Subscript);
  EXPECT_EQ(e->resolved, "os.environ[...]");
}

TEST(PythonImports, RebindingToANonModuleValueDoesNotHideTheImport) {
  // The fallback branch assigns None; decorators below still mean triton.jit.
  auto f = analyze(src(R"PY(
try:
    import triton
except ImportError:
    triton = None

@triton.jit
def k(x):
    pass
)PY"));
  ASSERT_EQ(f.functions.size(), 1u);
  ASSERT_EQ(f.functions[0].decorators.size(), 1u);
  EXPECT_EQ(f.functions[0].decorators[0].resolved, "triton.jit");
}

TEST(PythonImports, ParametersHideModuleNames) {
  auto f = analyze(src(R"PY(
import torch.nn.functional as F
def apply(F, x):
    return F.relu(x)
def plain(x):
    return F.relu(x)
)PY"));
  ASSERT_EQ(callsTo(f, "F.relu").size(), 1u);
  EXPECT_EQ(callTo(f, "F.relu")->function, "apply");
  ASSERT_EQ(callsTo(f, "torch.nn.functional.relu").size(), 1u);
  EXPECT_EQ(callTo(f, "torch.nn.functional.relu")->function, "plain");
}

TEST(PythonImports, WildcardAndFutureImports) {
  auto f = analyze(src(R"PY(
from __future__ import annotations
from torch import *
)PY"));
  const Import *fut = importOf(f, "annotations");
  ASSERT_NE(fut, nullptr);
  EXPECT_EQ(fut->target, "__future__.annotations");
  EXPECT_TRUE(fut->fromImport);
  const Import *star = importOf(f, "*");
  ASSERT_NE(star, nullptr);
  EXPECT_EQ(star->target, "torch.*");
}

TEST(PythonImports, FactsResolveUsesModuleLevelImportsOnly) {
  auto f = analyze(src(R"PY(
import torch.nn.functional as F
import torch.nn as nn
from torch.utils.cpp_extension import load_inline
def g():
    import numpy as np
)PY"));
  EXPECT_EQ(f.resolve("F.linear"), "torch.nn.functional.linear");
  EXPECT_EQ(f.resolve("F"), "torch.nn.functional");
  EXPECT_EQ(f.resolve("nn.Module"), "torch.nn.Module");
  EXPECT_EQ(f.resolve("load_inline"), "torch.utils.cpp_extension.load_inline");
  EXPECT_EQ(f.resolve("np.zeros"), "np.zeros");
  EXPECT_EQ(f.resolve("x.half"), "x.half");
  EXPECT_EQ(f.resolve(""), "");
}

TEST(PythonImports, NameRefsKeepTheLongestChainPerLine) {
  auto f = analyze(src(R"PY(
import os, sys, inspect
import torch
torch.backends.cuda.matmul.allow_tf32 = True
v = os.environ.get("A") or os.environ["B"]
caller = inspect.stack()[1]
args = sys.argv
local = something.else_
)PY"));
  auto refsOn = [&](unsigned line) {
    std::vector<std::string> out;
    for (const auto &r : f.nameRefs)
      if (r.lines.begin == line)
        out.push_back(r.resolved);
    return out;
  };
  EXPECT_EQ(refsOn(3), std::vector<std::string>{"torch.backends.cuda.matmul.allow_tf32"});
  EXPECT_EQ(refsOn(4), std::vector<std::string>{"os.environ.get"});
  EXPECT_EQ(refsOn(5), std::vector<std::string>{"inspect.stack"});
  EXPECT_EQ(refsOn(6), std::vector<std::string>{"sys.argv"});
  EXPECT_TRUE(refsOn(7).empty());
  for (const auto &r : f.nameRefs) {
    if (r.lines.begin == 6) {
      EXPECT_EQ(r.text, "sys.argv");
    }
  }
}

TEST(PythonImports, NameRefsThroughAliases) {
  auto f = analyze(src(R"PY(
from os import environ as env
import torch.nn.functional as F
def forward(self, x):
    if env.get("FAST"):
        return F.relu(x)
)PY"));
  ASSERT_EQ(f.nameRefs.size(), 2u);
  EXPECT_EQ(f.nameRefs[0].text, "env.get");
  EXPECT_EQ(f.nameRefs[0].resolved, "os.environ.get");
  EXPECT_EQ(f.nameRefs[0].function, "forward");
  EXPECT_EQ(f.nameRefs[0].lines, (LineRange{4, 4}));
  EXPECT_EQ(f.nameRefs[1].resolved, "torch.nn.functional.relu");
}

} // namespace
} // namespace kbaudit::py::testing
