// Torch fallbacks and what selects them (kbaudit/semantic/fallback_path.h): WRAP007 grades a
// fallback by its guard.

#include "kbaudit/semantic/fallback_path.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

const char *kSource = R"PY(import inspect
import torch
import triton
import triton.language as tl


@triton.jit
def _k(x_ptr):
    pass


def _reference(x, w):
    return torch.matmul(x, w)


def _launching(x, w):
    _k[(1,)](x)
    return torch.matmul(x, w)


def _from_checker():
    return inspect.stack()[1].function == "check"


try:
    _EXT = object()
except Exception:
    _EXT = None


class Model(torch.nn.Module):
    def forward(self, x, w):
        M, K = x.shape
        if _EXT is None:
            return _reference(x, w)
        if M == 1:
            return _launching(x, w)
        if not x.is_cuda:
            return x @ w
        if _from_checker():
            return _reference(x, w)
        for i in range(3):
            if i == 2:
                x = x + 1
        try:
            _k[(1,)](x)
        except RuntimeError:
            print("falling back")
            return _reference(x, w)
        return x
)PY";

const py::Branch *branchOn(const Facts &f, unsigned line) {
  for (const py::Branch &b : f.python.branches)
    if (b.lines.begin == line)
      return &b;
  return nullptr;
}

TEST(SemanticFallbackPath, HeavyOpsThroughKernelFreeHelpers) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const py::Function *fwd = f.python.findFunction("Model.forward");
  ASSERT_NE(fwd, nullptr);
  const std::vector<semantic::HeavyUse> uses = semantic::heavyOpsIn(f, "Model.forward", fwd->lines);
  std::vector<std::string> vias;
  for (const semantic::HeavyUse &u : uses)
    vias.push_back(u.via);
  EXPECT_EQ(std::count(vias.begin(), vias.end(), "_reference"), 3) << "three calls of the helper";
  EXPECT_EQ(std::count(vias.begin(), vias.end(), "_launching"), 0) << "a helper that launches is the kernel path";
  EXPECT_EQ(std::count(vias.begin(), vias.end(), ""), 1) << "the @ in place";
  for (const semantic::HeavyUse &u : uses)
    if (u.via == "_reference")
      EXPECT_NE(u.at.begin, u.op->lines.begin) << "a helper's op is placed at the call";
}

TEST(SemanticFallbackPath, GuardsAndHandlers) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const semantic::FallbackGuards guards(f.python);
  for (unsigned line : {34u, 36u, 38u, 40u, 43u})
    ASSERT_NE(branchOn(f, line), nullptr) << line;
  EXPECT_EQ(guards.guardOf(*branchOn(f, 34)), semantic::GuardKind::Availability) << "a name a handler sets";
  EXPECT_EQ(guards.guardOf(*branchOn(f, 36)), semantic::GuardKind::Shape) << "a local bound from x.shape";
  EXPECT_EQ(guards.guardOf(*branchOn(f, 38)), semantic::GuardKind::Device);
  EXPECT_EQ(guards.guardOf(*branchOn(f, 40)), semantic::GuardKind::CallerFrame) << "a predicate reading the stack";
  EXPECT_EQ(guards.guardOf(*branchOn(f, 43)), std::nullopt) << "a loop index is a step of the algorithm";

  EXPECT_EQ(guards.selectorOf("Model.forward", 35), branchOn(f, 34));
  EXPECT_EQ(guards.selectorOf("Model.forward", 33), nullptr);
  EXPECT_TRUE(guards.inHandler("Model.forward", 48));
  EXPECT_FALSE(guards.inHandler("Model.forward", 46));
  ASSERT_FALSE(f.python.tryHandlers.empty());
  for (const py::TryHandler &h : f.python.tryHandlers)
    EXPECT_EQ(semantic::announcesFailure(h), h.function == "Model.forward") << h.function;
}

} // namespace
} // namespace kbaudit
