// The Python front end reads what code does, not how it is spelled: getattr with a constant
// name is the attribute, an alias of a builtin is the builtin, a def that only delegates to a
// helper does what the helper does, and a kernel nothing names is dead.

#include "kbaudit/facts.h"

#include "python_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kbaudit;
using namespace kbaudit::py;
using namespace kbaudit::py::testing;

namespace {

const Call *callOn(const PythonFacts &f, unsigned line, const std::string &function = {}) {
  for (const Call &c : f.calls)
    if (c.lines.begin == line && (function.empty() || c.function == function))
      return &c;
  return nullptr;
}

const Function *fn(const PythonFacts &f, const std::string &qualname) { return f.findFunction(qualname); }

} // namespace

TEST(PythonSpelling, GetattrWithAConstantNameIsTheAttribute) {
  const PythonFacts f = analyze(src(R"PY(
import torch
y = getattr(torch, "matmul")(a, b)
z = getattr(getattr(torch, "nn"), "functional").relu(y)
w = getattr(torch, name)(a)
)PY"));
  const Call *mm = callOn(f, 2);
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->resolved, "torch.matmul");
  EXPECT_EQ(mm->method, "matmul");
  EXPECT_EQ(mm->receiver, "torch");
  EXPECT_EQ(callsTo(f, "torch.nn.functional.relu").size(), 1u);
  // A computed name stays what it is: kbaudit cannot tell which attribute it fetches.
  const Call *computed = callOn(f, 4);
  ASSERT_NE(computed, nullptr);
  EXPECT_NE(computed->resolved.rfind("torch.", 0), 0u) << computed->resolved;
}

TEST(PythonSpelling, AnAliasOfABuiltinIsTheBuiltin) {
  const PythonFacts f = analyze(src(R"PY(
_ident = id
_again = _ident
def forward(x):
    return _again(x)

def shadowed(id):
    return id(3)
)PY"));
  const auto ids = std::count_if(f.identityChecks.begin(), f.identityChecks.end(),
                                 [](const IdentityCheck &c) { return c.kind == "id"; });
  EXPECT_EQ(ids, 1) << "the alias chain calls id; a parameter named id does not";
  const Call *c = callOn(f, 4);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->resolved, "id");
}

TEST(PythonSpelling, ADelegatingMethodDoesWhatItsHelperDoes) {
  const PythonFacts f = analyze(src(R"PY(
import torch

def _impl(self, x):
    self.calls += 1
    if self.calls > 3:
        return self.cached
    return torch.relu(x) * self.scale

class ModelNew(torch.nn.Module):
    def forward(self, x):
        """Delegates."""
        return _impl(self, x)
)PY"));
  // The helper's body is read as forward's: its calls, self accesses and call counter.
  EXPECT_NE(callOn(f, 7, "ModelNew.forward"), nullptr) << "torch.relu attributed to forward";
  EXPECT_TRUE(std::any_of(f.selfAccesses.begin(), f.selfAccesses.end(), [](const SelfAccess &s) {
    return s.function == "ModelNew.forward" && s.attribute == "cached" && !s.write;
  }));
  const auto counter = std::find_if(f.branches.begin(), f.branches.end(), [](const Branch &b) {
    return b.function == "ModelNew.forward" && b.lines.begin == 5;
  });
  ASSERT_NE(counter, f.branches.end());
  EXPECT_NE(std::find(counter->tags.begin(), counter->tags.end(), ConditionTag::CallCounter), counter->tags.end());
  const Function *forward = fn(f, "ModelNew.forward");
  ASSERT_NE(forward, nullptr);
  EXPECT_EQ(forward->lines.begin, 3u) << "it spans the body it reads";
  EXPECT_TRUE(std::binary_search(forward->reads.begin(), forward->reads.end(), "torch"));
}

TEST(PythonSpelling, OnlyThePlainestDelegationIsInlined) {
  const PythonFacts f = analyze(src(R"PY(
import functools
import torch

@functools.lru_cache
def _cached(self, x):
    return torch.relu(x)

def _other(self, y):
    return torch.tanh(y)

def _rebound(self, x):
    return torch.sigmoid(x)
_rebound = None

class A(torch.nn.Module):
    def forward(self, x):
        return _cached(self, x)

class B(torch.nn.Module):
    def forward(self, x):
        return _other(self, x)

class C(torch.nn.Module):
    def forward(self, x):
        return _rebound(self, x)

class D(torch.nn.Module):
    def forward(self, x):
        return _other(x, self)
)PY"));
  for (const Call &c : f.calls)
    EXPECT_TRUE(c.function != "A.forward" || c.resolved != "torch.relu") << "a decorated helper (a cache)";
  for (const Call &c : f.calls) {
    EXPECT_FALSE(c.function == "B.forward" && c.resolved == "torch.tanh") << "different parameter names";
    EXPECT_FALSE(c.function == "C.forward" && c.resolved == "torch.sigmoid") << "a rebound name";
    EXPECT_FALSE(c.function == "D.forward" && c.resolved == "torch.tanh") << "arguments in another order";
  }
}

TEST(KernelInventory, AKernelNothingNamesIsDead) {
  const std::string kernel = R"PY(
import torch
import triton
import triton.language as tl

@triton.jit
def _unused(x_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)
)PY";
  const Facts dead = analyzeSource(SourceFile::fromBytes(src(kernel)));
  ASSERT_EQ(dead.kernels.kernels.size(), 1u);
  EXPECT_TRUE(dead.kernels.kernels[0].dead);
  EXPECT_EQ(dead.kernels.liveKernels(), 0u);

  // Named anywhere (an attribute set in __init__, a launch table) it may run.
  const Facts stored = analyzeSource(SourceFile::fromBytes(src(kernel + R"PY(
    def __init__(self):
        super().__init__()
        self.k = _unused
)PY")));
  EXPECT_FALSE(stored.kernels.kernels[0].dead);
  const Facts table = analyzeSource(SourceFile::fromBytes(src(kernel + "\nLAUNCHERS = {'copy': _unused}\n")));
  EXPECT_FALSE(table.kernels.kernels[0].dead);
  // Names looked up at run time: any kernel may be the one fetched.
  const Facts dynamic = analyzeSource(SourceFile::fromBytes(src(kernel + "\nk = globals()['_un' + 'used']\n")));
  EXPECT_FALSE(dynamic.kernels.kernels[0].dead);
}

TEST(PythonSpelling, SourcesShippedEncodedAreDecoded) {
  // "__global__ void k(float* x) { x[0] = 1.f; }\n" as base64 and as hex.
  const std::string cuda = "__global__ void k(float* x) { x[0] = 1.f; }\n";
  static const char *kB64 = "X19nbG9iYWxfXyB2b2lkIGsoZmxvYXQqIHgpIHsgeFswXSA9IDEuZjsgfQo=";
  std::string hex;
  for (unsigned char c : cuda) {
    static const char *digits = "0123456789abcdef";
    hex += digits[c >> 4];
    hex += digits[c & 15];
    hex += ' ';
  }
  for (const std::string &expr : {std::string("base64.b64decode(\"") + kB64 + "\").decode()",
                                  std::string("bytes.fromhex(\"") + hex + "\").decode(\"utf-8\")"}) {
    const Facts f = analyzeSource(SourceFile::fromBytes(
        "import base64\nfrom torch.utils.cpp_extension import load_inline\nsrc = " + expr +
        "\next = load_inline(name='e', cpp_sources='', cuda_sources=[src], functions=['k'])\n"));
    ASSERT_EQ(f.embedded.sources.size(), 1u) << expr;
    EXPECT_EQ(f.embedded.sources[0].text, cuda) << expr;
    EXPECT_TRUE(f.embedded.sources[0].complete);
  }
  // Not valid base64: nothing is guessed.
  const Facts bad = analyzeSource(SourceFile::fromBytes(
      "import base64\nfrom torch.utils.cpp_extension import load_inline\nsrc = base64.b64decode('%%%').decode()\n"
      "ext = load_inline(name='e', cpp_sources='', cuda_sources=[src], functions=['k'])\n"));
  for (const embed::EmbeddedSource &s : bad.embedded.sources)
    EXPECT_FALSE(s.complete && !s.text.empty());
}
