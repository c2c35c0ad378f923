// Work that runs after the timed call (semantic/deferred_work.h): TIME002 asks which read-backs
// of a subclass launch work, which callbacks run later, and which inputs forward keeps.

#include "kbaudit/semantic/deferred_work.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

const std::string kSource = src(R"PY(
import atexit
import torch
_pending = []
class Lazy(torch.Tensor):
    def item(self):
        return torch.relu(self).sum()
    def __repr__(self):
        return "lazy"
def _flush():
    torch.relu(torch.ones(4))
def _log():
    print("bye")
atexit.register(_flush)
atexit.register(_log)
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_forward_hook(_flush)
        self.kept = []
    def forward(self, x, y):
        _pending.append(x)
        self.kept.append(y)
        local = []
        local.append(x)
        z = x + 1
        _pending.append(z)
        return Lazy(x)
)PY");

TEST(SemanticDeferredWork, ReadBacksAndInstances) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const semantic::ForwardReach reach(f, nullptr, "");
  const py::Class *lazy = f.python.findClass("Lazy");
  ASSERT_NE(lazy, nullptr);
  EXPECT_EQ(semantic::workingReadBacks(reach, *lazy), std::vector<std::string>{"item"}); // __repr__ does no work
  EXPECT_TRUE(semantic::instantiatedOnForward(reach, *lazy));
  const py::Class *model = f.python.findClass("ModelNew");
  ASSERT_NE(model, nullptr);
  EXPECT_FALSE(semantic::instantiatedOnForward(reach, *model));
  EXPECT_FALSE(semantic::capturesCudaGraphs(f.python));
}

TEST(SemanticDeferredWork, CallbacksAndKeptInputs) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const semantic::ForwardReach reach(f, nullptr, "");
  std::vector<semantic::LaterCallback> callbacks;
  std::vector<std::string> kept;
  for (const py::Call &c : f.python.calls) {
    for (const semantic::LaterCallback &cb : semantic::laterCallbacks(reach, c))
      callbacks.push_back(cb);
    if (std::string name = semantic::inputKeptBeyondCall(reach, c); !name.empty())
      kept.push_back(name);
  }
  ASSERT_EQ(callbacks.size(), 2u); // _log does no work
  EXPECT_EQ(callbacks[0].function, "_flush");
  EXPECT_FALSE(callbacks[0].moduleHook);
  EXPECT_EQ(callbacks[1].function, "_flush");
  EXPECT_TRUE(callbacks[1].moduleHook);
  // A module list and a self attribute keep the inputs; a local list and a derived value do not.
  EXPECT_EQ(kept, (std::vector<std::string>{"x", "y"}));
}

} // namespace
} // namespace kbaudit
