// Assignment::computedTarget and Assignment::nameCandidates: library attributes written
// through computed receivers (type(...), getattr, import_module, sys.modules, vars, __dict__)
// and the names a computed setattr name takes in the loops around it.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

/// The assignment on `line` (1-indexed), or nullptr.
const Assignment *assignmentOn(const PythonFacts &f, unsigned line) {
  for (const Assignment &a : f.assignments)
    if (a.lines.begin == line)
      return &a;
  return nullptr;
}

TEST(PythonComputedTargets, ReceiversComputedFromLibraryObjects) {
  auto f = analyze(src(R"PY(
import importlib
import sys
import torch
ev_cls = type(torch.cuda.Event(enable_timing=True))
ev_cls.elapsed_time = lambda self, end: 0.1
getattr(torch, "cu" + "da").synchronize = lambda: None
importlib.import_module("time").perf_counter = lambda: 0.0
sys.modules["torch"].allclose = lambda *a, **k: True
vars(torch)["equal"] = lambda *a: True
torch.__dict__["isclose"] = lambda *a, **k: True
setattr(getattr(torch, "cuda"), "synchronize", lambda: None)
ev = torch.cuda.Event()
setattr(type(ev), "elapsed_" + "time", lambda self, end: 0.1)
__builtins__["print"] = lambda *a: None
E = torch.cuda.Event
E.record = lambda self, stream=None: None
)PY"));
  auto computed = [&](unsigned line) {
    const Assignment *a = assignmentOn(f, line);
    return a ? a->computedTarget : std::string("<no assignment>");
  };
  EXPECT_EQ(computed(5), "torch.cuda.Event().__class__.elapsed_time");
  EXPECT_EQ(computed(6), "torch.cuda.synchronize");
  EXPECT_EQ(computed(7), "time.perf_counter");
  EXPECT_EQ(computed(8), "torch.allclose");
  EXPECT_EQ(computed(9), "torch.equal");
  EXPECT_EQ(computed(10), "torch.isclose");
  // getattr with a constant name is the attribute itself: a plain module attribute, resolved.
  ASSERT_NE(assignmentOn(f, 11), nullptr);
  EXPECT_EQ(assignmentOn(f, 11)->resolved, "torch.cuda.synchronize");
  EXPECT_EQ(assignmentOn(f, 11)->kind, Assignment::TargetKind::ModuleAttribute);
  EXPECT_EQ(computed(13), "torch.cuda.Event().__class__.elapsed_time");
  EXPECT_EQ(computed(14), "builtins.print");
  // A plain alias is an import alias: `resolved` names it and nothing is computed.
  const Assignment *alias = assignmentOn(f, 16);
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->kind, Assignment::TargetKind::ModuleAttribute);
  EXPECT_EQ(alias->resolved, "torch.cuda.Event.record");
  EXPECT_EQ(alias->computedTarget, "");
}

TEST(PythonComputedTargets, LocalObjectsAreNotLibraryObjects) {
  auto f = analyze(src(R"PY(
import sys
import torch
class Cfg:
    pass
cfg = Cfg()
setattr(cfg, "block", 128)
setattr(sys.modules[__name__], "TUNED", True)
m = torch.nn.Linear(4, 4)
m.extra = 1
def f(obj, name, value):
    setattr(obj, name, value)
)PY"));
  EXPECT_EQ(assignmentOn(f, 6)->computedTarget, "");
  EXPECT_EQ(assignmentOn(f, 7)->computedTarget, "");
  // An instance a library call returned: spelled with `()`, not a library attribute.
  EXPECT_EQ(assignmentOn(f, 9)->computedTarget, "torch.nn.Linear().extra");
  EXPECT_EQ(assignmentOn(f, 11)->computedTarget, "");
  EXPECT_TRUE(assignmentOn(f, 11)->nameCandidates.empty());
}

TEST(PythonComputedTargets, NameCandidatesFromLoops) {
  auto f = analyze(src(R"PY(
import time
import torch
NAMES = ["perf_counter", "perf_counter_ns"]
PATCHES = {"allclose": None, "equal": None}
for name in NAMES:
    setattr(time, name, lambda: 0.0)
for key, fn in PATCHES.items():
    setattr(torch, key, fn)
for n, fn in zip(("synchronize",), (None,)):
    setattr(torch.cuda, n, fn)
for n, fn in (("isclose", None), (dynamic(), None)):
    vars(torch)[n] = fn
[setattr(torch, k, None) for k in sorted(PATCHES)]
for name in dir(torch):
    setattr(torch, name, None)
)PY"));
  auto candidates = [&](unsigned line) {
    const Assignment *a = assignmentOn(f, line);
    return a ? a->nameCandidates : std::vector<std::string>{"<no assignment>"};
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(candidates(6), (V{"perf_counter", "perf_counter_ns"}));
  EXPECT_EQ(assignmentOn(f, 6)->resolved, "time.<dynamic>");
  EXPECT_EQ(candidates(8), (V{"allclose", "equal"}));
  EXPECT_EQ(candidates(10), (V{"synchronize"}));
  EXPECT_EQ(candidates(12), (V{"isclose", "<dynamic>"}));
  EXPECT_EQ(assignmentOn(f, 12)->computedTarget, "torch.<dynamic>");
  EXPECT_EQ(candidates(13), (V{"allclose", "equal"}));
  EXPECT_EQ(candidates(15), V{});
}

// The grammar reads `type(obj).attr = v` at the start of a statement as a `type` alias
// statement; it is an assignment all the same.
TEST(PythonComputedTargets, TypeCallAtStatementStartIsAnAssignment) {
  auto f = analyze(src(R"PY(
import torch
type(torch.cuda.Event(enable_timing=True)).elapsed_time = lambda self, end: 0.0
def patch():
    type(torch.empty(0)).__eq__ = None
type Alias = int
type Pair[T] = tuple[T, T]
)PY"));
  const Assignment *top = assignmentOn(f, 2);
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->target, "type(torch.cuda.Event(enable_timing=True)).elapsed_time");
  EXPECT_EQ(top->kind, Assignment::TargetKind::Attribute);
  EXPECT_EQ(top->computedTarget, "torch.cuda.Event().__class__.elapsed_time");
  EXPECT_EQ(top->value.kind, ExprKind::Lambda);
  const Assignment *inner = assignmentOn(f, 4);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->function, "patch");
  EXPECT_EQ(inner->computedTarget, "torch.empty().__class__.__eq__");
  EXPECT_EQ(assignmentOn(f, 5), nullptr) << "a real type alias";
  EXPECT_EQ(assignmentOn(f, 6), nullptr);
}

} // namespace
} // namespace kbaudit::py::testing
