// Which library attribute an assignment replaces (kbaudit/semantic/library_write.h) and what
// runs at import (kbaudit/semantic/import_time.h): RUB003 judges monkeypatches with both.

#include "kbaudit/semantic/import_time.h"
#include "kbaudit/semantic/library_write.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

const py::Assignment *onLine(const Facts &f, unsigned line) {
  for (const py::Assignment &a : f.python.assignments)
    if (a.lines.begin == line)
      return &a;
  return nullptr;
}

std::string written(const Facts &f, unsigned line) {
  const py::Assignment *a = onLine(f, line);
  if (!a)
    return "<no assignment>";
  return semantic::libraryAttributeWritten(*a).value_or("<none>");
}

TEST(SemanticLibraryWrite, ClassesOfCallResultsAndInstances) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
type(torch.cuda.Event(enable_timing=True)).elapsed_time = None
type(torch.empty(0)).__eq__ = None
type(torch.cuda.current_stream()).synchronize = None
torch.nn.Linear(4, 4).extra = None
torch.allclose = None
vars(torch)["equal"] = None
type(torch).__getattr__ = None
cfg = object()
cfg.x = 1
)PY"));
  EXPECT_EQ(written(f, 2), "torch.cuda.Event.elapsed_time");
  EXPECT_EQ(written(f, 3), "torch.Tensor.__eq__");
  EXPECT_EQ(written(f, 4), "torch.cuda.Stream.synchronize");
  EXPECT_EQ(written(f, 5), "<none>") << "one object a library call returned, not the library";
  EXPECT_EQ(written(f, 6), "torch.allclose");
  EXPECT_EQ(written(f, 7), "torch.equal");
  EXPECT_EQ(written(f, 8), "<none>") << "a module's class (a metaclass write) is not judged";
  EXPECT_EQ(written(f, 10), "<none>");
  EXPECT_EQ(semantic::classOfCallResult("torch.zeros"), "torch.Tensor");
  EXPECT_EQ(semantic::classOfCallResult("torch.Generator"), "torch.Generator");
  EXPECT_EQ(semantic::classOfCallResult("numpy.zeros"), "numpy.zeros");
}

TEST(SemanticLibraryWrite, RestoresAndLaterRestores) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
_orig = torch.matmul
def run(fn, a, b):
    torch.matmul = fn
    try:
        return a @ b
    finally:
        torch.matmul = _orig
def install(fn):
    torch.matmul = fn
def uninstall():
    torch.matmul = _orig
)PY"));
  const py::Assignment *patch = onLine(f, 4);
  const py::Assignment *restore = onLine(f, 8);
  const py::Assignment *install = onLine(f, 10);
  ASSERT_TRUE(patch && restore && install);
  EXPECT_TRUE(semantic::restoredLater(f.python, *patch)) << "undone in the same function's finally";
  EXPECT_TRUE(semantic::restoresOriginal(f.python, *restore));
  EXPECT_FALSE(semantic::restoresOriginal(f.python, *patch));
  EXPECT_FALSE(semantic::restoredLater(f.python, *install)) << "undone only by another function";
}

TEST(SemanticImportTime, FunctionsTheModuleBodyCalls) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
def _helper():
    pass
def _install():
    _helper()
class Patcher:
    def __init__(self):
        _install()
def _unused():
    pass
def _selftest():
    pass
Patcher()
if __name__ == "__main__":
    _selftest()
class ModelNew(torch.nn.Module):
    def forward(self, x):
        return x
)PY"));
  const semantic::scope::GradedScope graded(f);
  const std::set<std::string> atImport = semantic::functionsRunAtImport(f.python, graded);
  EXPECT_EQ(atImport, (std::set<std::string>{"Patcher.__init__", "_helper", "_install"}));
  EXPECT_TRUE(semantic::runsAtImport(atImport, graded, "", LineRange{13, 13}));
  EXPECT_FALSE(semantic::runsAtImport(atImport, graded, "", LineRange{15, 15})) << "inside the main guard";
  EXPECT_FALSE(semantic::runsAtImport(atImport, graded, "_unused", LineRange{10, 10}));
}

} // namespace
} // namespace kbaudit
