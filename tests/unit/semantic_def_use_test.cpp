// The semantic layer's def-use (kbaudit/semantic/def_use.h): which bindings a name read in a
// function has, and whether a value is a read-back of a setting (a restore, not a new value).

#include "kbaudit/semantic/def_use.h"

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

const Assignment *assignmentTo(const PythonFacts &f, std::string_view target, std::string_view function) {
  for (const Assignment &a : f.assignments)
    if (a.target == target && a.function == function)
      return &a;
  return nullptr;
}

TEST(SemanticDefUse, BindingsOfLocalsGlobalsAndSelfAttributes) {
  auto f = analyze(src(R"PY(
import torch
LIMIT = 4
class M:
    def setup(self):
        self.saved = torch.get_float32_matmul_precision()
    def run(self):
        prev = 1
        return prev, LIMIT, self.saved
def other():
    prev = 2
)PY"));
  EXPECT_EQ(semantic::bindingsOf(f, "prev", "M.run").size(), 1u) << "only run's own prev, not other()'s";
  EXPECT_EQ(semantic::bindingsOf(f, "LIMIT", "M.run").size(), 1u) << "module globals are visible";
  EXPECT_EQ(semantic::bindingsOf(f, "self.saved", "M.run").size(), 1u) << "self attributes bound in another method";
  EXPECT_TRUE(semantic::bindingsOf(f, "self.saved", "other").empty()) << "no class, no self attribute";
  EXPECT_TRUE(semantic::bindingsOf(f, "", "M.run").empty());
}

TEST(SemanticDefUse, RestoreOfASavedSettingIsAReadBack) {
  auto f = analyze(src(R"PY(
import torch
def forward(a, b):
    prev = torch.backends.cuda.matmul.allow_tf32
    old = torch.get_float32_matmul_precision()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    c = a @ b
    torch.backends.cuda.matmul.allow_tf32 = prev
    torch.set_float32_matmul_precision(old)
    return c
)PY"));
  const std::string flag = "torch.backends.cuda.matmul.allow_tf32";
  const auto restores = assignmentsTo(f, flag);
  ASSERT_EQ(restores.size(), 2u);
  EXPECT_FALSE(semantic::readsBackSetting(f, restores[0]->value, "forward", flag)) << "False is a new value";
  EXPECT_TRUE(semantic::readsBackSetting(f, restores[1]->value, "forward", flag)) << "prev holds the saved flag";
  const Call *set = callTo(f, "torch.set_float32_matmul_precision", 1);
  ASSERT_NE(set, nullptr);
  EXPECT_TRUE(semantic::readsBackSetting(f, set->args[0].value, "forward", {}, "torch.get_float32_matmul_precision"));
  EXPECT_FALSE(semantic::readsBackSetting(f, set->args[0].value, "forward", {}, "torch.get_default_dtype"))
      << "a getter of another setting is not a restore of this one";
}

TEST(SemanticDefUse, NameAlsoBoundToANewValueIsNotARestore) {
  auto f = analyze(src(R"PY(
import torch
def forward(a, fast):
    prev = torch.backends.cuda.matmul.allow_tf32
    if fast:
        prev = True
    torch.backends.cuda.matmul.allow_tf32 = prev
)PY"));
  const Assignment *set = assignmentTo(f, "torch.backends.cuda.matmul.allow_tf32", "forward");
  ASSERT_NE(set, nullptr);
  EXPECT_FALSE(semantic::readsBackSetting(f, set->value, "forward", "torch.backends.cuda.matmul.allow_tf32"));
}

} // namespace
} // namespace kbaudit::py::testing
