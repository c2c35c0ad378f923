// FrameAttribute and LoopBinding facts: frame, traceback and generator attributes on any
// object (with whether they are stored into), and the names loops and comprehensions bind.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

std::vector<std::string> frameAttrs(const PythonFacts &f) {
  std::vector<std::string> out;
  for (const auto &a : f.frameAttributes)
    out.push_back((a.written ? "w:" : "r:") + a.resolved + "@" + std::to_string(a.lines.begin) + "|" + a.function);
  return out;
}

TEST(PythonFrames, FrameAttributesOnCallsLocalsAndImports) {
  auto f = analyze(src(R"PY(
import sys
import inspect as ins
def grab():
    frame = ins.currentframe().f_back
    loc = frame.f_locals
    g = sys._getframe(1).f_globals["ref"]
    name = ins.currentframe().f_code.co_name
    info = ins.stack()[1].frame.f_locals
    return loc, g, name, info
)PY"));
  EXPECT_EQ(frameAttrs(f), (std::vector<std::string>{
                               "r:inspect.currentframe().f_back@4|grab", "r:frame.f_locals@5|grab",
                               "r:sys._getframe(...).f_globals@6|grab", "r:inspect.currentframe().f_code@7|grab",
                               "r:inspect.stack()[...].frame.f_locals@8|grab"}));
  EXPECT_EQ(f.frameAttributes[0].attribute, "f_back");
  EXPECT_EQ(f.frameAttributes[0].object, "ins.currentframe()");
}

TEST(PythonFrames, StoresIntoAFrameNamespaceAreWrites) {
  auto f = analyze(src(R"PY(
import sys
def poke(v):
    frame = sys._getframe(1)
    frame.f_locals["out"] = v
    sys._getframe(2).f_globals["check"] = v
    frame.f_back.f_locals["n"] += 1
    frame.f_globals.update({"x": v})
    frame.f_locals["t"].data = v
    frame.f_back.f_locals.get("y")
    frame.f_locals["t"][0] = v
)PY"));
  EXPECT_EQ(frameAttrs(f), (std::vector<std::string>{
                               "w:frame.f_locals@4|poke", "w:sys._getframe(...).f_globals@5|poke",
                               "w:frame.f_back.f_locals@6|poke", "r:frame.f_back@6|poke",
                               "w:frame.f_globals@7|poke", "w:frame.f_locals@8|poke",
                               "r:frame.f_back.f_locals@9|poke", "r:frame.f_back@9|poke",
                               "w:frame.f_locals@10|poke"}));
}

TEST(PythonFrames, TracebackAndGeneratorFrames) {
  auto f = analyze(src(R"PY(
import sys
try:
    raise ValueError
except ValueError:
    tb = sys.exc_info()[2]
    up = tb.tb_frame.f_back
)PY"));
  EXPECT_EQ(frameAttrs(f), (std::vector<std::string>{"r:tb.tb_frame.f_back@6|", "r:tb.tb_frame@6|"}));
}

TEST(PythonFrames, OrdinaryAttributesAreNotFrameAttributes) {
  auto f = analyze(src(R"PY(
def forward(self, x):
    self.f_out = x.shape
    return x.f_local
)PY"));
  EXPECT_TRUE(f.frameAttributes.empty());
}

std::vector<std::string> loops(const PythonFacts &f) {
  std::vector<std::string> out;
  for (const auto &b : f.loops) {
    std::string names;
    for (const auto &t : b.targets)
      names += (names.empty() ? "" : ",") + t;
    out.push_back(names + "<-" + b.iterable.text + (b.comprehension ? " (c)" : "") + "@" +
                  std::to_string(b.lines.begin) + "|" + b.function);
  }
  return out;
}

TEST(PythonFrames, LoopAndComprehensionBindings) {
  auto f = analyze(src(R"PY(
import gc
def scan(out):
    for obj in gc.get_objects():
        pass
    for i, (a, b) in enumerate(pairs):
        pass
    found = [o for o in gc.get_objects() if o is not out]
    table = {k: v for k, v in d.items()}
    total = sum(t.numel() for t in found)
    for self.x in xs:
        pass
)PY"));
  EXPECT_EQ(loops(f), (std::vector<std::string>{"obj<-gc.get_objects()@3|scan", "i,a,b<-enumerate(pairs)@5|scan",
                                                "o<-gc.get_objects() (c)@7|scan", "k,v<-d.items() (c)@8|scan",
                                                "t<-found (c)@9|scan"}));
  EXPECT_EQ(f.loops[0].iterable.resolved, "gc.get_objects");
}

} // namespace
} // namespace kbaudit::py::testing
